package io.pytestmobileagent.listener;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Serves encoded event lines to every connected TCP client from a bounded ring buffer.
 *
 * <p>publish() only copies a line into the ring and wakes the writers, so the accessibility
 * callback (the UI thread) never waits on a socket. Each client has its own writer thread; a
 * client that falls more than the ring's capacity behind skips ahead and sees a gap in seq.
 * Pure Java (no android imports) so it runs on a plain JVM in the host tests.
 */
public final class EventBroadcaster {
    private final Object lock = new Object();
    private final byte[][] ring;
    private final Set<Socket> clients = new HashSet<Socket>();
    private long nextSeq = 1;
    private boolean closed;
    private ServerSocket server;

    public EventBroadcaster(int capacity) {
        ring = new byte[capacity][];
    }

    /** Binds address:port and starts accepting clients on a daemon thread. */
    public void start(InetAddress address, int port) throws IOException {
        final ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(address, port), 16);
        synchronized (lock) {
            if (closed) {
                s.close();
                return;
            }
            server = s;
        }
        Thread t = new Thread(new Runnable() {
            @Override
            public void run() {
                acceptLoop(s);
            }
        }, "pma-accept");
        t.setDaemon(true);
        t.start();
    }

    public int localPort() {
        synchronized (lock) {
            return server == null ? -1 : server.getLocalPort();
        }
    }

    /** Stores the event under the next seq and wakes the writers; returns that seq. */
    public long publish(EventRecord record) {
        synchronized (lock) {
            long seq = nextSeq;
            ring[(int) ((seq - 1) % ring.length)] = JsonLineWriter.event(seq, record);
            nextSeq = seq + 1;
            lock.notifyAll();
            return seq;
        }
    }

    /**
     * Uses up the next seq without an event, so clients see the loss as a gap (the service
     * calls it when its queue overflows).
     */
    public void skip() {
        synchronized (lock) {
            ring[(int) ((nextSeq - 1) % ring.length)] = null;
            nextSeq++;
        }
    }

    /** Disconnects every client but keeps serving (used by tests to force reconnects). */
    public void dropClients() {
        List<Socket> copy;
        synchronized (lock) {
            copy = new ArrayList<Socket>(clients);
        }
        for (Socket c : copy) {
            closeQuietly(c);
        }
        synchronized (lock) {
            lock.notifyAll(); // wake their writer threads so they end now
        }
    }

    public void close() {
        ServerSocket s;
        synchronized (lock) {
            closed = true;
            s = server;
            lock.notifyAll();
        }
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // Already closed: nothing left to release.
            }
        }
        dropClients();
    }

    private void acceptLoop(ServerSocket s) {
        while (true) {
            final Socket c;
            try {
                c = s.accept();
            } catch (IOException e) {
                return; // closed
            }
            final long first;
            synchronized (lock) {
                if (closed) {
                    closeQuietly(c);
                    return;
                }
                clients.add(c);
                first = nextSeq; // decided at accept, not when the writer thread gets going
            }
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    serve(c, first);
                }
            }, "pma-client");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(Socket c, long first) {
        try {
            c.setTcpNoDelay(true);
            OutputStream out = new BufferedOutputStream(c.getOutputStream(), 65536);
            long cursor = first;
            out.write(JsonLineWriter.hello(cursor));
            out.flush();
            List<byte[]> batch = new ArrayList<byte[]>();
            while (true) {
                synchronized (lock) {
                    while (cursor == nextSeq && !closed && !c.isClosed()) {
                        lock.wait();
                    }
                    if (closed || c.isClosed()) {
                        return;
                    }
                    long oldest = Math.max(1, nextSeq - ring.length);
                    cursor = Math.max(cursor, oldest);
                    for (; cursor < nextSeq; cursor++) {
                        byte[] line = ring[(int) ((cursor - 1) % ring.length)];
                        if (line != null) {
                            batch.add(line);
                        }
                    }
                }
                for (byte[] line : batch) {
                    out.write(line);
                }
                out.flush();
                batch.clear();
            }
        } catch (IOException e) {
            // The client went away; its thread ends here.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (lock) {
                clients.remove(c);
            }
            closeQuietly(c);
        }
    }

    private static void closeQuietly(Socket c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // Nothing to do: the socket is unusable either way.
        }
    }
}
