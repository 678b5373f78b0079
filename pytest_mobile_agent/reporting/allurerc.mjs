// Allure 3 configuration for pytest-mobile-agent results. `python -m pytest_mobile_agent.reporting`
// passes it with --config; by hand: allure generate --config path/to/allurerc.mjs allure-results
// The failure categories are the same file the plugin writes into the results directory for
// Allure 2 (categories.json), so both report generations group failures alike.
import { readFileSync } from "node:fs";

const categories = JSON.parse(readFileSync(new URL("./categories.json", import.meta.url), "utf8"));

export default {
  name: "pytest-mobile-agent",
  output: "./allure-report",
  categories: { rules: categories },
  plugins: {
    awesome: {
      options: {
        // One index.html that opens from disk, or (set by the report command for large runs)
        // index.html beside data files that the page loads over HTTP as it needs them.
        singleFile: process.env.PYTEST_MOBILE_AGENT_REPORT !== "multi-file",
        reportLanguage: "en",
        stepTreeExpansion: "expanded", // every agent step open: the screenshots are the story
        groupBy: ["parentSuite", "suite", "subSuite"], // agent > suite > app
      },
    },
  },
};
