// Command go_idna is the punycheck `label` adapter for golang.org/x/net/idna
// as packaged by Debian bookworm (golang-golang-x-net-dev 1:0.7.0+dfsg-1,
// built with Debian's Go 1.19, so idna10.0.0.go, go118.go and the Unicode 13
// tables13.0.0.go are the files compiled in).
//
// What is asked, one label as the whole domain name:
//
//	idna.Lookup.ToUnicode(label) / idna.Lookup.ToASCII(ulabel)     mode lookup (default)
//	idna.Display.ToUnicode(label) / idna.Display.ToASCII(ulabel)   mode display
//
// Profiles (idna10.0.0.go lines 286-304): both are UTS #46 with
// UseSTD3ASCIIRules=true, CheckHyphens=true, CheckJoiners=true, CheckBidi
// (bidirule.ValidString), VerifyDnsLength=false, and the validateAndMap
// mapping; Lookup is Nontransitional here (go118.go: transitionalLookup =
// false on Go >= 1.18), Display is Nontransitional. ToUnicode always runs
// Nontransitional (line 239). The package says it implements UTS #46 as of
// its Unicode 13 tables (revision of that time), not revision 33.
//
// Install: apt-get install golang-go golang-golang-x-net-dev
// Build:   cd adapters/label/go_idna && GO111MODULE=off GOPATH=/usr/share/gocode \
//
//	GOCACHE=../../build/gocache GOFLAGS= go build -o ../../build/label-go-idna .
//
// Spec:    pipe:adapters/build/label-go-idna [lookup|display]
//
// Failure: ToUnicode and ToASCII return (string, error); a non-nil error is
// the package's failure and becomes "error <err.Error()>" (the partial
// string it returns with the error is dropped). A panic inside the package
// is not recovered: it is its crash.
//
// Protocol (pipe:): `decode LABEL` (LABEL: UTF-8 text after the first space)
// answers `ok u+XXXX ...`; `encode u+XXXX ...` answers `ok xn--...`; each
// answer is flushed. The adapter answers "error adapter: ..." itself for a
// label that is not UTF-8, a malformed token, a token that is not a Unicode
// scalar value (a surrogate or above U+10FFFF: strings.Builder.WriteRune
// would write U+FFFD instead), an A-label result that is not printable ASCII,
// and an unknown verb. An empty result is `ok` alone. Escaped verbs:
// `decodex HEX` is decode with the label given as hexadecimal of its UTF-8
// bytes (malformed hexadecimal: "error adapter: ..."), `encodex TOKENS` is
// encode with the A-label's bytes answered as lowercase hexadecimal, any
// byte, so without the printable check.
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

func parseTokens(text string) (string, string) {
	var b strings.Builder
	for _, tok := range strings.Fields(text) {
		if len(tok) < 3 || len(tok) > 10 || (tok[0] != 'u' && tok[0] != 'U') || tok[1] != '+' {
			return "", "adapter: bad token \"" + oneLine(short(tok)) + "\""
		}
		v, err := strconv.ParseUint(tok[2:], 16, 32)
		if err != nil {
			return "", "adapter: bad token \"" + oneLine(short(tok)) + "\""
		}
		if v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) {
			return "", fmt.Sprintf("adapter: cannot pass u+%04X (not a Unicode scalar value, so not in a Go string)", v)
		}
		b.WriteRune(rune(v))
	}
	return b.String(), ""
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

// oneLine makes a message one line of printable ASCII: other runes are
// written as \uXXXX or \UXXXXXXXX, invalid UTF-8 bytes as \xXX.
func oneLine(s string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r >= 0x20 && r <= 0x7E:
			b.WriteRune(r)
		case r <= 0xFFFF:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	return b.String()
}

func answer(p *idna.Profile, line string) string {
	verb, rest := line, ""
	if i := strings.IndexByte(line, ' '); i >= 0 {
		verb, rest = line[:i], line[i+1:]
	}
	switch verb {
	case "decode", "decodex":
		if verb == "decodex" {
			b, err := hex.DecodeString(rest)
			if err != nil {
				return "error adapter: bad hexadecimal"
			}
			rest = string(b)
		}
		if !utf8.ValidString(rest) {
			return "error adapter: label is not UTF-8"
		}
		out, err := p.ToUnicode(rest)
		if err != nil {
			return "error " + oneLine(err.Error())
		}
		toks := []string{"ok"}
		for _, r := range out {
			toks = append(toks, fmt.Sprintf("u+%04X", r))
		}
		return strings.Join(toks, " ")
	case "encode", "encodex":
		ulabel, refusal := parseTokens(rest)
		if refusal != "" {
			return "error " + refusal
		}
		out, err := p.ToASCII(ulabel)
		if err != nil {
			return "error " + oneLine(err.Error())
		}
		if verb == "encodex" {
			return strings.TrimSuffix("ok "+hex.EncodeToString([]byte(out)), " ")
		}
		for i := 0; i < len(out); i++ {
			if out[i] < 0x20 || out[i] > 0x7E {
				return fmt.Sprintf("error adapter: cannot pass the answer %s: byte 0x%02X is not printable ASCII", oneLine(short(out)), out[i])
			}
		}
		if out == "" {
			return "ok"
		}
		return "ok " + out
	}
	return "error adapter: unknown request"
}

func main() {
	p := idna.Lookup
	switch {
	case len(os.Args) == 1 || (len(os.Args) == 2 && os.Args[1] == "lookup"):
	case len(os.Args) == 2 && os.Args[1] == "display":
		p = idna.Display
	default:
		fmt.Fprintln(os.Stderr, "usage: label-go-idna [lookup|display]")
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadString('\n')
		if err != nil && err != io.EOF {
			panic(err)
		}
		if line == "" && err == io.EOF {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		fmt.Fprintln(out, answer(p, line))
		if ferr := out.Flush(); ferr != nil {
			panic(ferr)
		}
		if err == io.EOF {
			return
		}
	}
}
