package io.pytestmobileagent.listener;

import java.nio.charset.Charset;

/**
 * Encodes events and the hello line as single JSON lines (UTF-8, ending in '\n') following
 * pytest_mobile_agent/events/event_schema.json. Pure Java: no android imports, no JSON library.
 */
public final class JsonLineWriter {
    public static final String HELLO_NAME = "pytest-mobile-agent-events";
    public static final int PROTOCOL_VERSION = 1;
    /** A line, not counting its '\n', may be at most this many bytes. */
    public static final int MAX_LINE_BYTES = 65536;

    private static final Charset UTF_8 = Charset.forName("UTF-8");
    /** Per-string caps tried in turn until the line fits; the first means "no cap". */
    private static final int[] CAPS = {Integer.MAX_VALUE, 4096, 1024, 256, 64, 16, 0};

    private JsonLineWriter() {}

    public static byte[] hello(long nextSeq) {
        String line = "{\"hello\":\"" + HELLO_NAME + "\",\"version\":" + PROTOCOL_VERSION
                + ",\"next_seq\":" + nextSeq + "}\n";
        return line.getBytes(UTF_8);
    }

    /** Encodes one event; strings are shortened only when the line would be over the limit. */
    public static byte[] event(long seq, EventRecord r) {
        String type = EventTypes.nameOf(r.typeCode);
        if (type == null) {
            throw new IllegalArgumentException("unknown event type code " + r.typeCode);
        }
        for (int cap : CAPS) {
            byte[] line = encode(seq, type, r, cap);
            if (line.length - 1 <= MAX_LINE_BYTES) {
                return line;
            }
        }
        throw new IllegalStateException("event does not fit in a line"); // unreachable: cap 0
    }

    private static byte[] encode(long seq, String type, EventRecord r, int cap) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"seq\":").append(seq);
        b.append(",\"type\":");
        string(b, type, Integer.MAX_VALUE);
        b.append(",\"type_code\":").append(r.typeCode);
        b.append(",\"time\":").append(r.time);
        b.append(",\"package\":");
        string(b, r.packageName, cap);
        b.append(",\"class\":");
        string(b, r.className, cap);
        b.append(",\"text\":[");
        int items = Math.min(r.text.length, cap);
        for (int i = 0; i < items; i++) {
            if (i > 0) {
                b.append(',');
            }
            string(b, r.text[i] == null ? "" : r.text[i], cap);
        }
        b.append("],\"content_description\":");
        string(b, r.contentDescription, cap);
        b.append(",\"view_id\":");
        string(b, r.viewId, cap);
        b.append(",\"bounds\":");
        if (r.bounds == null || r.bounds.length != 4) {
            b.append("null");
        } else {
            b.append('[').append(r.bounds[0]).append(',').append(r.bounds[1]).append(',');
            b.append(r.bounds[2]).append(',').append(r.bounds[3]).append(']');
        }
        b.append(",\"window_id\":").append(r.windowId);
        b.append(",\"window_title\":");
        string(b, r.windowTitle, cap);
        b.append("}\n");
        return b.toString().getBytes(UTF_8);
    }

    /** Appends a JSON string (or null), at most cap UTF-16 units long, never splitting a pair. */
    static void string(StringBuilder b, String s, int cap) {
        if (s == null) {
            b.append("null");
            return;
        }
        int end = Math.min(s.length(), cap);
        if (end > 0 && end < s.length() && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        b.append('"');
        for (int i = 0; i < end; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        unicodeEscape(b, c);
                    } else if (Character.isHighSurrogate(c)
                            && i + 1 < end
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        b.append(c).append(s.charAt(i + 1));
                        i++;
                    } else if (Character.isSurrogate(c)) {
                        // A lone surrogate has no UTF-8 form: replace it so the line stays valid.
                        b.append('\uFFFD');
                    } else {
                        b.append(c);
                    }
            }
        }
        b.append('"');
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    // Written by hand: String.format would use the device locale.
    private static void unicodeEscape(StringBuilder b, char c) {
        b.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
            b.append(HEX[(c >> shift) & 0xf]);
        }
    }
}
