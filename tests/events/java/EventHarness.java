import io.pytestmobileagent.listener.EventBroadcaster;
import io.pytestmobileagent.listener.EventRecord;
import io.pytestmobileagent.listener.EventTypes;
import io.pytestmobileagent.listener.JsonLineWriter;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * Drives the listener app's pure-Java classes on a plain JVM for tests/events.
 *   encode FILE     one event per input line (see test_event_java.py), JSON lines to stdout
 *   types           "code name" for every event type the app knows
 *   serve CAPACITY  runs EventBroadcaster on a free loopback port; stdin commands:
 *                   "publish N", "skip N", "drop", "quit"; answers "port P" first, then "ok" per command
 */
public final class EventHarness {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("encode")) {
            encode(args[1]);
        } else if (args[0].equals("types")) {
            for (int i = 0; i < EventTypes.count(); i++) {
                int code = EventTypes.codeAt(i);
                System.out.println(code + " " + EventTypes.nameOf(code));
            }
        } else if (args[0].equals("serve")) {
            serve(Integer.parseInt(args[1]));
        }
    }

    private static void encode(String path) throws Exception {
        BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(path), StandardCharsets.US_ASCII));
        OutputStream out = System.out;
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            String[] items = new String[Integer.parseInt(f[5].substring(0, f[5].indexOf(':')))];
            String[] hex = f[5].substring(f[5].indexOf(':') + 1).split(",", -1);
            for (int i = 0; i < items.length; i++) {
                items[i] = str(hex[i]);
            }
            int[] bounds = null;
            if (!f[8].equals("-")) {
                String[] b = f[8].split(",");
                bounds = new int[] {
                    Integer.parseInt(b[0]), Integer.parseInt(b[1]),
                    Integer.parseInt(b[2]), Integer.parseInt(b[3])
                };
            }
            EventRecord r = new EventRecord(Integer.parseInt(f[1]), Long.parseLong(f[2]),
                    str(f[3]), str(f[4]), items, str(f[6]), str(f[7]), bounds,
                    Integer.parseInt(f[9]), str(f[10]));
            out.write(JsonLineWriter.event(Long.parseLong(f[0]), r));
        }
        out.flush();
    }

    /** "-" is null, anything else is the hex of the string's UTF-16BE code units. */
    private static String str(String hex) {
        if (hex.equals("-")) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) {
            b.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
        }
        return b.toString();
    }

    private static void serve(int capacity) throws Exception {
        EventBroadcaster server = new EventBroadcaster(capacity);
        server.start(InetAddress.getByName("127.0.0.1"), 0);
        PrintStream out = System.out;
        out.println("port " + server.localPort());
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        long time = 1000;
        while ((line = in.readLine()) != null) {
            String[] cmd = line.trim().split(" ");
            if (cmd[0].equals("publish")) {
                for (int i = 0; i < Integer.parseInt(cmd[1]); i++) {
                    server.publish(new EventRecord(1, time++, "com.example", "android.widget.Button",
                            new String[] {"Button " + i}, null, "com.example:id/b" + i,
                            new int[] {0, 0, 10, 10}, 7, null));
                }
            } else if (cmd[0].equals("skip")) {
                for (int i = 0; i < Integer.parseInt(cmd[1]); i++) {
                    server.skip();
                }
            } else if (cmd[0].equals("drop")) {
                server.dropClients();
            } else if (cmd[0].equals("quit")) {
                break;
            }
            out.println("ok");
            out.flush();
        }
        server.close();
    }
}
