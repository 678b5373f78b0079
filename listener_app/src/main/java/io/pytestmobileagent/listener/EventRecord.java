package io.pytestmobileagent.listener;

/**
 * The fields of one accessibility event, copied out of Android's recycled event object.
 * Pure Java (no android imports) so the JSON encoding can be tested on a plain JVM.
 */
public final class EventRecord {
    public final int typeCode;
    public final long time;
    public final String packageName;
    public final String className;
    public final String[] text;
    public final String contentDescription;
    public final String viewId;
    /** left, top, right, bottom in screen pixels, or null when the source node is unknown. */
    public final int[] bounds;
    public final int windowId;
    public final String windowTitle;

    public EventRecord(
            int typeCode,
            long time,
            String packageName,
            String className,
            String[] text,
            String contentDescription,
            String viewId,
            int[] bounds,
            int windowId,
            String windowTitle) {
        this.typeCode = typeCode;
        this.time = time;
        this.packageName = packageName == null ? "" : packageName;
        this.className = className == null ? "" : className;
        this.text = text == null ? new String[0] : text;
        this.contentDescription = contentDescription;
        this.viewId = viewId;
        this.bounds = bounds;
        this.windowId = windowId;
        this.windowTitle = windowTitle;
    }
}
