package io.pytestmobileagent.listener;

/**
 * Android accessibility event type names and codes, as listed in
 * pytest_mobile_agent/events/event_schema.json. Pure Java so it runs on a plain JVM.
 */
public final class EventTypes {
    public static final int TYPE_WINDOW_STATE_CHANGED = 32;

    private static final String[] NAMES = {
        "TYPE_VIEW_CLICKED",
        "TYPE_VIEW_LONG_CLICKED",
        "TYPE_VIEW_SELECTED",
        "TYPE_VIEW_FOCUSED",
        "TYPE_VIEW_TEXT_CHANGED",
        "TYPE_WINDOW_STATE_CHANGED",
        "TYPE_NOTIFICATION_STATE_CHANGED",
        "TYPE_VIEW_HOVER_ENTER",
        "TYPE_VIEW_HOVER_EXIT",
        "TYPE_TOUCH_EXPLORATION_GESTURE_START",
        "TYPE_TOUCH_EXPLORATION_GESTURE_END",
        "TYPE_WINDOW_CONTENT_CHANGED",
        "TYPE_VIEW_SCROLLED",
        "TYPE_VIEW_TEXT_SELECTION_CHANGED",
        "TYPE_ANNOUNCEMENT",
        "TYPE_VIEW_ACCESSIBILITY_FOCUSED",
        "TYPE_VIEW_ACCESSIBILITY_FOCUS_CLEARED",
        "TYPE_VIEW_TEXT_TRAVERSED_AT_MOVEMENT_GRANULARITY",
        "TYPE_GESTURE_DETECTION_START",
        "TYPE_GESTURE_DETECTION_END",
        "TYPE_TOUCH_INTERACTION_START",
        "TYPE_TOUCH_INTERACTION_END",
        "TYPE_WINDOWS_CHANGED",
        "TYPE_VIEW_CONTEXT_CLICKED",
        "TYPE_ASSIST_READING_CONTEXT",
        "TYPE_SPEECH_STATE_CHANGE",
        "TYPE_VIEW_TARGETED_BY_SCROLL",
    };

    private EventTypes() {}

    /** Android's event type codes are single bits: NAMES[i] has code 1 << i. */
    public static String nameOf(int code) {
        if (code <= 0 || Integer.bitCount(code) != 1) {
            return null;
        }
        int bit = Integer.numberOfTrailingZeros(code);
        return bit < NAMES.length ? NAMES[bit] : null;
    }

    public static int count() {
        return NAMES.length;
    }

    public static int codeAt(int index) {
        return 1 << index;
    }
}
