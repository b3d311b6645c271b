// Command go_idna is the punycheck `domain` adapter for golang.org/x/net/idna
// on whole domain names, as packaged by Debian bookworm
// (golang-golang-x-net-dev 1:0.7.0+dfsg-1, built with Debian's Go 1.19, so
// idna10.0.0.go, go118.go and the Unicode 13.0.0 tables13.0.0.go, "//go:build
// go1.16", are the files compiled in: idna.UnicodeVersion is "13.0.0").
//
// What is asked, the whole name at once:
//
//	idna.Lookup.ToASCII(name) / idna.Lookup.ToUnicode(name)     mode lookup (default)
//	idna.Display.ToASCII(name) / idna.Display.ToUnicode(name)   mode display
//
// Profiles (idna10.0.0.go lines 286-304): both are UTS #46 with
// UseSTD3ASCIIRules, CheckHyphens, CheckJoiners and CheckBidi
// (bidirule.ValidString on every label of a Bidi name, lines 389-396) on,
// VerifyDnsLength off, the validateAndMap mapping (which maps U+3002,
// U+FF0E and U+FF61 to U+002E before the name is broken at U+002E, lines
// 340-355); Lookup is Nontransitional on Go >= 1.18 (go118.go:
// transitionalLookup = false), Display always, and ToUnicode always runs
// Nontransitional (line 239): with Go 1.19 the two profiles are the same.
//
// Install: apt-get install golang-go golang-golang-x-net-dev
// Build:   cd adapters/domain/go_idna && GO111MODULE=off GOPATH=/usr/share/gocode \
//
//	GOCACHE=../../build/gocache GOFLAGS= go build -o ../../build/domain-go-idna .
//
// Spec:    pipe:adapters/build/domain-go-idna [lookup|display]
//
// The pipe protocol of the domain codec, a line each way:
//
//	encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
//	decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
//	encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's bytes in
//	                                                  hexadecimal, whatever they are:
//	                                                  asked for a name that is not
//	                                                  printable ASCII)
//
// TOKENS are u+XXXX code points separated by spaces. ToASCII and ToUnicode
// return (string, error); a non-nil error is the package's failure and
// becomes "error <err.Error()>" (the partial string it returns beside the
// error is dropped). A panic inside the package is not recovered: it is its
// crash. Adapter-side refusals, "error adapter: ...": a malformed token, a
// token that is not a Unicode scalar value (a surrogate or above U+10FFFF:
// strings.Builder.WriteRune would write U+FFFD instead), an answer to encode
// (not encodex) that is not printable ASCII, an unknown verb. An empty result
// is `ok` alone.
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
			return "", "adapter: bad token"
		}
		v, err := strconv.ParseUint(tok[2:], 16, 32)
		if err != nil {
			return "", "adapter: bad token"
		}
		if v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) {
			return "", fmt.Sprintf("adapter: cannot pass u+%04X (not a Unicode scalar value, so not in a Go string)", v)
		}
		b.WriteRune(rune(v))
	}
	return b.String(), ""
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
	if verb != "encode" && verb != "encodex" && verb != "decode" {
		return "error adapter: unknown request"
	}
	name, refusal := parseTokens(rest)
	if refusal != "" {
		return "error " + refusal
	}
	if verb == "decode" {
		out, err := p.ToUnicode(name)
		if err != nil {
			return "error " + oneLine(err.Error())
		}
		toks := []string{"ok"}
		for _, r := range out {
			toks = append(toks, fmt.Sprintf("u+%04X", r))
		}
		return strings.Join(toks, " ")
	}
	out, err := p.ToASCII(name)
	if err != nil {
		return "error " + oneLine(err.Error())
	}
	if verb == "encodex" {
		if out == "" {
			return "ok"
		}
		return "ok " + hex.EncodeToString([]byte(out))
	}
	for i := 0; i < len(out); i++ {
		if out[i] < 0x20 || out[i] > 0x7E {
			return "error adapter: the answer is not printable ASCII"
		}
	}
	if out == "" {
		return "ok"
	}
	return "ok " + out
}

func main() {
	p := idna.Lookup
	switch {
	case len(os.Args) == 1 || (len(os.Args) == 2 && os.Args[1] == "lookup"):
	case len(os.Args) == 2 && os.Args[1] == "display":
		p = idna.Display
	case len(os.Args) == 2 && os.Args[1] == "--unicode-version":
		fmt.Println(idna.UnicodeVersion)
		return
	default:
		fmt.Fprintln(os.Stderr, "usage: domain-go-idna [lookup|display|--unicode-version]")
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
