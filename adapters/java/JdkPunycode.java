/*
 * punycheck adapter for the JDK's internal Punycode, the helper behind
 * java.net.IDN: jdk.internal.icu.impl.Punycode (a port of ICU 3.2's
 * punycode.c, in java.base), checked with Debian bookworm's OpenJDK 17.0.15:
 *
 *   static StringBuffer encode(StringBuffer src, boolean[] caseFlags) throws ParseException
 *   static StringBuffer decode(StringBuffer src, boolean[] caseFlags) throws ParseException
 *
 * Both work on UTF-16, and caseFlags is indexed by UTF-16 unit (the flag of a
 * supplementary code point sits at its lead surrogate).
 *
 * Install: apt-get install openjdk-17-jdk-headless
 * Build:   javac --add-exports java.base/jdk.internal.icu.impl=ALL-UNNAMED -d adapters/build/java adapters/java/JdkPunycode.java
 * Run:     java --add-exports java.base/jdk.internal.icu.impl=ALL-UNNAMED -cp adapters/build/java JdkPunycode [-e|-d|-ex|-dx]
 *          (adapters/install.sh builds it and writes the wrapper adapters/build/jdk-punycode)
 *
 * Supports encode and decode with Appendix A case flags (u+ = flag clear,
 * U+ = flag set; a flags array is always passed, as the RFC's wrapper does).
 * A surrogate or a code point above U+10FFFF cannot be passed faithfully in
 * UTF-16 (two surrogate tokens would join): the adapter refuses them itself
 * ("failed: adapter: ..."). Errors: the documented ParseException, whose
 * messages do not tell overflow from invalid input, becomes
 * "failed: <message>", except "Too many input code points" (its own limit
 * of 256 code points to encode), which becomes "input or output is too
 * large"; every other exception propagates (a crash).
 *
 * Modes: -e / -d follow the RFC 3492 Appendix C wrapper convention; with no
 * argument, the pipe protocol ("encode TOKENS" / "decode TEXT" lines in,
 * "ok RESULT" / "error MESSAGE" lines out, flushed after each). Escaped forms
 * (any byte can cross): -ex / -dx and the pipe verbs "encodex" / "decodex"
 * carry the encoded text as lowercase hexadecimal of its bytes; a decodex byte
 * becomes the char of the same number (Latin-1), the encoded text leaves as its
 * UTF-8 bytes.
 */
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.List;
import jdk.internal.icu.impl.Punycode;

public final class JdkPunycode {
    /** ok and text (the Punycode, the space-separated tokens, or the message). */
    record Answer(boolean ok, String text) {}

    static Answer encode(String tokens) throws ParseException {
        StringBuilder src = new StringBuilder();
        List<Boolean> flags = new ArrayList<>();
        for (String tok : tokens.trim().split("\\s+")) {
            if (tok.isEmpty()) continue;
            if (tok.length() < 3 || (tok.charAt(0) != 'u' && tok.charAt(0) != 'U') || tok.charAt(1) != '+')
                throw new IllegalArgumentException("bad token " + tok);
            long cp = Long.parseLong(tok.substring(2), 16);
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                return new Answer(false, String.format(
                        "failed: adapter: u+%04X cannot be passed faithfully in UTF-16", cp));
            src.appendCodePoint((int) cp);
            flags.add(tok.charAt(0) == 'U');
            if (cp > 0xFFFF) flags.add(false); // trail surrogate's slot
        }
        boolean[] caseFlags = new boolean[flags.size()];
        for (int j = 0; j < caseFlags.length; j++) caseFlags[j] = flags.get(j);
        try {
            return new Answer(true, Punycode.encode(new StringBuffer(src), caseFlags).toString());
        } catch (ParseException e) {
            // Its own size limit (MAX_CP_COUNT, 256 code points) says so by name.
            if ("Too many input code points".equals(e.getMessage()))
                return new Answer(false, "input or output is too large");
            return new Answer(false, "failed: " + e.getMessage());
        }
    }

    static Answer decode(String text, String sep) {
        boolean[] caseFlags = new boolean[Math.max(256, text.length() + 1)];
        StringBuffer out;
        try {
            out = Punycode.decode(new StringBuffer(text), caseFlags);
        } catch (ParseException e) {
            return new Answer(false, "failed: " + e.getMessage());
        }
        StringBuilder res = new StringBuilder();
        for (int j = 0; j < out.length(); ) {
            int cp = out.codePointAt(j);
            if (res.length() > 0) res.append(sep);
            res.append(String.format("%s+%04X", caseFlags[j] ? "U" : "u", cp));
            j += Character.charCount(cp);
        }
        return new Answer(true, res.toString());
    }

    /** The escaped forms: an encode answer as hexadecimal, a decode question from it. */
    static Answer toHex(Answer a) {
        return a.ok() ? new Answer(true, HexFormat.of().formatHex(a.text().getBytes(StandardCharsets.UTF_8))) : a;
    }

    static String fromHex(String hex) {
        return new String(HexFormat.of().parseHex(hex), StandardCharsets.ISO_8859_1);
    }

    public static void main(String[] args) throws IOException, ParseException {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.ISO_8859_1);
        if (args.length == 1 && List.of("-e", "-d", "-ex", "-dx").contains(args[0])) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            System.in.transferTo(buf);
            String in = buf.toString(StandardCharsets.ISO_8859_1);
            Answer a;
            if (args[0].equals("-e")) {
                a = encode(in);
            } else if (args[0].equals("-ex")) {
                a = toHex(encode(in));
            } else {
                int nl = in.indexOf('\n');
                String line = nl < 0 ? in : in.substring(0, nl);
                a = decode(args[0].equals("-dx") ? fromHex(line) : line, "\n");
            }
            if (!a.ok()) {
                System.err.println(a.text());
                System.exit(1);
            }
            out.print(a.text().isEmpty() && args[0].startsWith("-d") ? "" : a.text() + "\n");
            out.flush();
            return;
        }
        if (args.length != 0) {
            System.err.println("usage: JdkPunycode [-e|-d|-ex|-dx]");
            System.exit(2);
        }
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.ISO_8859_1));
        for (String line; (line = r.readLine()) != null; ) {
            int sp = line.indexOf(' ');
            String verb = sp < 0 ? line : line.substring(0, sp);
            String rest = sp < 0 ? "" : line.substring(sp + 1);
            if (!List.of("encode", "encodex", "decode", "decodex").contains(verb))
                throw new IllegalArgumentException("unknown request: " + line);
            Answer a;
            String kind;
            try {
                if (verb.equals("encode")) a = encode(rest);
                else if (verb.equals("encodex")) a = toHex(encode(rest));
                else if (verb.equals("decode")) a = decode(rest, " ");
                else a = decode(fromHex(rest), " ");
                kind = a.ok() ? "ok" : "error";
            } catch (RuntimeException e) {
                // What the implementation threw, on one line: a crash, and
                // the adapter goes on (a JVM takes long to start again).
                a = new Answer(false, String.valueOf(e).replaceAll("[\\r\\n]+", " "));
                kind = "crash";
            }
            out.print(kind + (a.text().isEmpty() ? "" : " " + a.text()) + "\n");
            out.flush();
        }
    }
}
