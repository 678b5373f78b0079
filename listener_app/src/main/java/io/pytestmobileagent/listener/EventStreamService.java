package io.pytestmobileagent.listener;

import android.accessibilityservice.AccessibilityService;
import android.content.Intent;
import android.graphics.Rect;
import android.util.Log;
import android.view.accessibility.AccessibilityEvent;
import android.view.accessibility.AccessibilityNodeInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Streams every accessibility event as a JSON line to clients of 127.0.0.1:7333.
 *
 * <p>Event callbacks arrive on the UI thread: they only copy the event and queue it. A worker
 * thread does the slow part (getSource() is a binder call into the app) and publishes.
 */
public final class EventStreamService extends AccessibilityService {
    public static final int PORT = 7333;
    private static final String TAG = "PmaEventStream";
    private static final int RING_CAPACITY = 4096;
    private static final int QUEUE_CAPACITY = 4096;

    private final BlockingQueue<AccessibilityEvent> pending =
            new ArrayBlockingQueue<AccessibilityEvent>(QUEUE_CAPACITY);
    private volatile EventBroadcaster broadcaster;
    private Thread worker;

    @Override
    protected void onServiceConnected() {
        super.onServiceConnected();
        stop();
        final EventBroadcaster b = new EventBroadcaster(RING_CAPACITY);
        broadcaster = b;
        worker = new Thread(new Runnable() {
            @Override
            public void run() {
                // Binding here, off the UI thread, keeps StrictMode network checks quiet.
                try {
                    b.start(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), PORT);
                    Log.i(TAG, "listening on 127.0.0.1:" + PORT);
                } catch (IOException e) {
                    Log.e(TAG, "cannot listen on 127.0.0.1:" + PORT, e);
                }
                drain(b);
            }
        }, "pma-events");
        worker.start();
    }

    @Override
    public void onAccessibilityEvent(AccessibilityEvent event) {
        EventBroadcaster b = broadcaster;
        if (b == null || event == null) {
            return;
        }
        // Android recycles the event after this returns; the copy keeps getSource() usable.
        AccessibilityEvent copy = AccessibilityEvent.obtain(event);
        if (!pending.offer(copy)) {
            copy.recycle();
            b.skip(); // the loss shows up as a gap in seq (slightly ahead of its place)
        }
    }

    @Override
    public void onInterrupt() {}

    @Override
    public boolean onUnbind(Intent intent) {
        stop();
        return super.onUnbind(intent);
    }

    @Override
    public void onDestroy() {
        stop();
        super.onDestroy();
    }

    private void drain(EventBroadcaster b) {
        while (broadcaster == b) {
            AccessibilityEvent event;
            try {
                event = pending.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                EventRecord r = toRecord(event);
                if (r != null) {
                    b.publish(r);
                }
            } catch (RuntimeException e) {
                // A bad event must not take the whole stream down.
                Log.w(TAG, "dropped an event", e);
            } finally {
                event.recycle();
            }
        }
    }

    private void stop() {
        EventBroadcaster b = broadcaster;
        broadcaster = null;
        if (worker != null) {
            worker.interrupt();
            worker = null;
        }
        if (b != null) {
            b.close();
        }
        pending.clear();
    }

    private static EventRecord toRecord(AccessibilityEvent e) {
        int code = e.getEventType();
        if (EventTypes.nameOf(code) == null) {
            return null; // a type newer than the schema: clients could not decode it
        }
        List<CharSequence> items = e.getText();
        String[] text = new String[items.size()];
        for (int i = 0; i < text.length; i++) {
            text[i] = str(items.get(i));
        }
        String className = str(e.getClassName());
        String viewId = null;
        int[] bounds = null;
        AccessibilityNodeInfo source = e.getSource();
        if (source != null) {
            try {
                viewId = source.getViewIdResourceName();
                Rect r = new Rect();
                source.getBoundsInScreen(r);
                bounds = new int[] {r.left, r.top, r.right, r.bottom};
            } finally {
                source.recycle();
            }
        }
        String windowTitle = null;
        if (code == EventTypes.TYPE_WINDOW_STATE_CHANGED) {
            // Android puts the window title in the event text; fall back to the activity class.
            windowTitle = text.length > 0 && !text[0].isEmpty() ? text[0] : className;
        }
        return new EventRecord(
                code,
                e.getEventTime(),
                str(e.getPackageName()),
                className,
                text,
                e.getContentDescription() == null ? null : e.getContentDescription().toString(),
                viewId,
                bounds,
                e.getWindowId(),
                windowTitle);
    }

    private static String str(CharSequence s) {
        return s == null ? "" : s.toString();
    }
}
