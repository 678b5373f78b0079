"""The model judges' prompts, written for this project (the papers' structure, our words)."""

# -- SPA-Bench's fine judge (mllm) -------------------------------------------------------------
MLLM_SYSTEM = """You review what a phone agent did. You get a task given to the agent and the \
screenshots of the phone, in order, taken before its first action and after each action. Decide \
whether the task was carried out correctly and completely.

How to judge:
1. Judge only from what the screenshots (and the actions, when given) show. Assume nothing that \
is not visible.
2. Split the task into its parts. The task succeeded only if every part was done.
3. A part fails when it was not finished, or when it was done on the wrong thing (a different \
name, value, item or setting) or with the wrong operation.
4. Extra actions that do not undo or spoil the requested result are harmless.
5. Parts that filter or narrow a list count as done when the result shows the narrowed list.
6. Respect the order the task gives when the order matters to the result.
7. A part may be completed part-way through the trajectory; it counts if later actions did not \
undo it.
8. Mistakes the agent corrected later do not count against it.
9. Screens passed on the way (menus, dialogs) are means, not results.
10. Look at the whole trajectory before deciding.
11. The app may look different from what you expect; judge what it shows.
Be strict: when the evidence does not show success, it is a failure. Answer 1 for success and 0 \
for failure."""

MLLM_ACTIONS = """
12. Use the action information to tell what changed between two screenshots; a red dot marks \
where the agent touched.
13. One action may complete several parts of the task at once."""

MLLM_TASK = "The task given to the agent: {task}\n{history}Decide whether it was carried out correctly and completely."
MLLM_HISTORY = "What earlier parts of this task found about '{phrase}': {summary}\n"
MLLM_TEXT_ACTION = "The action between screenshot {i} and screenshot {j} was {action}."
MLLM_RESULT_ONLY = "Answer in exactly this form and nothing else:\nResult: <1 or 0>"
MLLM_DIRECT = (
    "Answer in exactly this form:\nReason: <start with 'I believe this task is successful' or "
    "'I believe this task is failed', then why>\nResult: <1 or 0>"
)
MLLM_SPLIT = """Split this phone task into subtasks, one per app, in the order they are done. Adjacent \
subtasks use different apps. Use exactly these app package names: {apps}.
For each subtask give: "app" (a package name from the list), "task" (what to do in that app; \
write {{phrase}} where it uses something found earlier), "history" (true when it needs what an \
earlier subtask found), "memory" (the phrase a later subtask needs from this one, or "None").
Answer with JSON only: {{"subtask_1": {{"app": ..., "task": ..., "history": false, "memory": ...}}, ...}}

Task: {task}"""
MLLM_MEMORY = (
    "These screenshots show a phone agent working on: {task}. Summarise, in one or two sentences, what "
    "they show about '{phrase}' (the facts a later step will need). Answer with the summary only."
)

# -- AutoEval ------------------------------------------------------------------------------------
DECOMPOSER = """Break a phone task into the key substates a screen must pass through when the task \
is done. Each substate is a node:
- PageNode(content="...", parent_id=...): a page of an app is visible. Its parent is the page \
it is entered from (None for the first page).
- UnitNode(content="...", parent_id=...): one element of a page is visible in a given state \
(a text field holds a value, a switch is on, an item is listed). Its parent is the PageNode of \
the page that holds it.
Rules: number the nodes 0, 1, 2, ... in order; a parent is always an earlier PageNode; first \
check that the target app is open; return as few substates as possible, only ones every correct \
execution must reach; one property per substate; never "a button was clicked" (it cannot be \
seen).
{additional_info}Answer with one node per line, like:
0. PageNode(content="Clock app main page is visible", parent_id=None)
1. UnitNode(content="An alarm at 3:00 PM is listed", parent_id=0)

Task: {task}"""

CAPTURER = """Describe this phone screenshot for someone who cannot see it. First say which app \
it most likely belongs to (only from what is shown). Then go from top to bottom: every element's \
type, its exact text, and its state (selected, checked, enabled, focused, expanded). Make no \
assumptions about what is not shown."""

REASONER = """You check whether substates of a phone task are reached on the current screen.
1. Task: {task}
2. What earlier screens established: {memory}
3. The current screen: {screen}
4. Substates to check:
{substates}
For a PageNode: is the current page that page? For a UnitNode: is the current page its parent \
page, and is the element visible and in the stated state? Judge only from the screen description. \
Answer "true" when the substate holds, otherwise "uncertain" (never "false").
Answer with JSON only: {{"thought": "...", "analysis": ["one line per substate"], \
"states": ["true" or "uncertain", one per substate, in order], "critical_info": "facts worth \
remembering"}}"""
