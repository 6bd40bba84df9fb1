package io.polylink.itests.process;

import io.polylink.ContextId;
import io.polylink.Descriptor;
import io.polylink.Startpoint;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A tcp peer written from docs/wire-formats.md alone, not from the method's code: what a test
 * dials a node with when it plays a peer the node must not trust, and an independent check that
 * the page describes what nodes speak.
 */
final class RawTcpPeer {

    static final int TIMEOUT_MS = 10_000;
    private static final byte[] MAGIC = "PLNK".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 2;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The welcome's status codes, in order. */
    enum Status { ACCEPTED, WRONG_PEER, DUPLICATE, BAD_VERSION, IN_USE, KEY_REQUIRED, NO_KEY, AUTH_FAILED, BUSY }

    record Welcome(Status status, ContextId from, long heartbeatMs, long failureMs) {}

    private RawTcpPeer() {}

    /**
     * @return the first address in the tcp descriptor of {@code s}'s first target:
     *     {@code count:u8 (length:u8 ip:length port:u16){count}}
     */
    static InetSocketAddress address(Startpoint s) throws IOException {
        Descriptor tcp = s.targets().get(0).table().entries().stream().filter(d -> d.method().equals("tcp"))
            .findFirst().orElseThrow();
        ByteBuffer in = ByteBuffer.wrap(tcp.address());
        in.get(); // how many; the first will do
        byte[] ip = new byte[in.get()];
        in.get(ip);
        return new InetSocketAddress(InetAddress.getByAddress(ip), in.getShort() & 0xFFFF);
    }

    /** @return a socket connected to {@code at}, reads bounded by {@link #TIMEOUT_MS} */
    static Socket connect(InetSocketAddress at) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(at, TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /**
     * Dials as {@code from}: the hello, and with {@code psk} (the key's bytes) the proof the
     * challenge asks for; the acceptor's own proof is not checked.
     *
     * @return the answer
     */
    static Welcome dial(Socket s, ContextId from, ContextId to, int heartbeatMs, int failureMs, byte[] psk)
            throws IOException {
        byte[] nonce = new byte[32];
        RANDOM.nextBytes(nonce);
        ByteBuffer hello = ByteBuffer.allocate(83).put(MAGIC).put((byte) VERSION).put((byte) 1)
            .put((byte) (psk == null ? 0 : 1)).putLong(from.high()).putLong(from.low()).putLong(to.high())
            .putLong(to.low()).putInt(0).putInt(heartbeatMs).putInt(failureMs).put(nonce).flip();
        OutputStream out = s.getOutputStream();
        out.write(hello.array());
        DataInputStream in = new DataInputStream(s.getInputStream());
        ByteBuffer head = ByteBuffer.wrap(in.readNBytes(6));
        if (head.remaining() == 6 && head.get(5) == 3 && psk != null) {
            ByteBuffer challenge = ByteBuffer.wrap(in.readNBytes(80));
            byte[] acceptor = new byte[48];
            challenge.get(0, acceptor);
            ByteBuffer transcript = ByteBuffer.allocate(131).put(hello.duplicate()).put(acceptor).flip();
            out.write(ByteBuffer.allocate(38).put(MAGIC).put((byte) VERSION).put((byte) 4)
                .put(proof(psk, "polylink tcp v2 dialler proof", transcript)).array());
            head = ByteBuffer.wrap(in.readNBytes(6));
        }
        ByteBuffer rest = ByteBuffer.wrap(in.readNBytes(25));
        if (head.remaining() < 6 || head.get(5) != 2 || rest.remaining() < 25) {
            throw new IOException("the node did not answer with a welcome");
        }
        return new Welcome(Status.values()[rest.get(0)], new ContextId(rest.getLong(1), rest.getLong(9)),
            Integer.toUnsignedLong(rest.getInt(17)), Integer.toUnsignedLong(rest.getInt(21)));
    }

    /** HMAC-SHA256 under the handshake key drawn from {@code psk} with HKDF, of the label and the transcript. */
    private static byte[] proof(byte[] psk, String label, ByteBuffer transcript) {
        byte[] prk = hmac("polylink tcp v2 psk".getBytes(StandardCharsets.US_ASCII), psk);
        byte[] info = "polylink tcp v2 handshake\u0001".getBytes(StandardCharsets.US_ASCII);
        byte[] key = hmac(prk, info);
        ByteBuffer input = ByteBuffer.allocate(label.length() + transcript.remaining())
            .put(label.getBytes(StandardCharsets.US_ASCII)).put(transcript.duplicate());
        return hmac(key, input.array());
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
