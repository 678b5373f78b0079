"""Simple-Commons' Material palettes, as its colour pickers offer them (res/values/arrays.xml,
colors.xml): the 19 primary colours, the app icon colours, and each primary's nine shades
(100 to 900) in LineColorPickerDialog.getColorsForIndex's order."""

from __future__ import annotations

PRIMARY_COLORS = (
    "#F44336",
    "#E91E63",
    "#9C27B0",
    "#673AB7",
    "#3F51B5",
    "#2196F3",
    "#03A9F4",
    "#00BCD4",
    "#009688",
    "#4CAF50",
    "#8BC34A",
    "#CDDC39",
    "#FFEB3B",
    "#FFC107",
    "#FF9800",
    "#FF5722",
    "#795548",
    "#607D8B",
    "#9E9E9E",
)
APP_ICON_COLORS = (
    "#D32F2F",
    "#C2185B",
    "#7B1FA2",
    "#512DA8",
    "#303F9F",
    "#1976D2",
    "#0288D1",
    "#0097A7",
    "#00796B",
    "#388E3C",
    "#689F38",
    "#A4B42B",
    "#FBC02D",
    "#FFA000",
    "#F57C00",
    "#E64A19",
    "#5D4037",
    "#455A64",
    "#000000",
)
SHADES = (
    ("#FFCDD2", "#EF9A9A", "#E57373", "#EF5350", "#F44336", "#E53935", "#D32F2F", "#C62828", "#B71C1C"),  # md_reds
    ("#F8BBD0", "#F48FB1", "#F06292", "#EC407A", "#E91E63", "#D81B60", "#C2185B", "#AD1457", "#880E4F"),  # md_pinks
    ("#E1BEE7", "#CE93D8", "#BA68C8", "#AB47BC", "#9C27B0", "#8E24AA", "#7B1FA2", "#6A1B9A", "#4A148C"),  # md_purples
    (
        "#D1C4E9",
        "#B39DDB",
        "#9575CD",
        "#7E57C2",
        "#673AB7",
        "#5E35B1",
        "#512DA8",
        "#4527A0",
        "#311B92",
    ),  # md_deep_purples
    ("#C5CAE9", "#9FA8DA", "#7986CB", "#5C6BC0", "#3F51B5", "#3949AB", "#303F9F", "#283593", "#1A237E"),  # md_indigos
    ("#BBDEFB", "#90CAF9", "#64B5F6", "#42A5F5", "#2196F3", "#1E88E5", "#1976D2", "#1565C0", "#0D47A1"),  # md_blues
    (
        "#B3E5FC",
        "#81D4FA",
        "#4FC3F7",
        "#29B6FC",
        "#03A9F4",
        "#039BE5",
        "#0288D1",
        "#0277BD",
        "#01579B",
    ),  # md_light_blues
    ("#B2EBF2", "#80DEEA", "#4DD0E1", "#26C6DA", "#00BCD4", "#00ACC1", "#0097A7", "#00838F", "#006064"),  # md_cyans
    ("#B2DFDB", "#80CBC4", "#4DB6AC", "#26A69A", "#009688", "#00897B", "#00796B", "#00695C", "#004D40"),  # md_teals
    ("#C8E6C9", "#A5D6A7", "#81C784", "#66BB6A", "#4CAF50", "#43A047", "#388E3C", "#2E7D32", "#1B5E20"),  # md_greens
    (
        "#DCEDC8",
        "#C5E1A5",
        "#AED581",
        "#9CCC65",
        "#8BC34A",
        "#7CB342",
        "#689F38",
        "#558B2F",
        "#33691E",
    ),  # md_light_greens
    ("#F0F4C3", "#E6EE9C", "#DCE775", "#D4E157", "#CDDC39", "#C0CA33", "#A4B42B", "#9E9D24", "#827717"),  # md_limes
    ("#FFF9C4", "#FFF590", "#FFF176", "#FFEE58", "#FFEB3B", "#FDD835", "#FBC02D", "#F9A825", "#F57F17"),  # md_yellows
    ("#FFECB3", "#FFE082", "#FFD54F", "#FFCA28", "#FFC107", "#FFB300", "#FFA000", "#FF8F00", "#FF6F00"),  # md_ambers
    ("#FFE0B2", "#FFCC80", "#FFB74D", "#FFA726", "#FF9800", "#FB8C00", "#F57C00", "#EF6C00", "#E65100"),  # md_oranges
    (
        "#FFCCBC",
        "#FFAB91",
        "#FF8A65",
        "#FF7043",
        "#FF5722",
        "#F4511E",
        "#E64A19",
        "#D84315",
        "#BF360C",
    ),  # md_deep_oranges
    ("#D7CCC8", "#BCAAA4", "#A1887F", "#8D6E63", "#795548", "#6D4C41", "#5D4037", "#4E342E", "#3E2723"),  # md_browns
    (
        "#CFD8DC",
        "#B0BBC5",
        "#90A4AE",
        "#78909C",
        "#607D8B",
        "#546E7A",
        "#455A64",
        "#37474F",
        "#263238",
    ),  # md_blue_greys
    ("#FFFFFF", "#EEEEEE", "#E0E0E0", "#BDBDBD", "#9E9E9E", "#757575", "#616161", "#424242", "#000000"),  # md_greys
)
DEFAULT_INDEXES = (14, 6)  # DEFAULT_PRIMARY_COLOR_INDEX, DEFAULT_SECONDARY_COLOR_INDEX: orange 700
# baseConfig.colorPickerRecentColors until a colour is picked: red, blue, green, yellow, orange 700
RECENT_DEFAULT = ("#D32F2F", "#1976D2", "#388E3C", "#FBC02D", "#F57C00")
RECENT_COUNT = 5  # RECENT_COLORS_NUMBER
