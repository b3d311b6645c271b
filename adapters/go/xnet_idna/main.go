// Command xnet_idna is the punycheck adapter for the Punycode code of
// golang.org/x/net/idna (file punycode.go, generated from golang.org/x/text),
// as packaged by Debian bookworm: golang-golang-x-net-dev 1:0.7.0+dfsg-1,
// built with Debian's Go 1.19.
//
// What is asked: the package's own unexported functions
//
//	func decode(encoded string) (string, error)      // RFC 3492 section 6.2
//	func encode(prefix, s string) (string, error)    // section 6.3, prefix ""
//
// reached with //go:linkname (hence the empty stub.s), so that every question
// can be put exactly: the exported idna.Punycode.ToASCII / ToUnicode wrap the
// same two functions but split at '.', leave all-ASCII labels unencoded and
// need the "xn--" prefix (see adapters/FINDINGS.md).
//
// Install: apt-get install golang-go golang-golang-x-net-dev
// Build:   GO111MODULE=off GOPATH=/usr/share/gocode go build -o adapters/build/xnet_idna ./adapters/go/xnet_idna
// (adapters/install.sh does this).
//
// Supports encode and decode; no case flags (U+ is sent as u+, decoded code
// points are printed u+); Go strings carry Unicode scalar values only, so a
// surrogate or a code point above U+10FFFF is refused by the adapter itself
// ("failed: adapter: ..."), never handed to the package. Errors: one error
// value for every failure, so each becomes "failed: <err.Error()>".
//
// Modes: -e / -d follow the RFC 3492 Appendix C wrapper convention; with no
// argument, the pipe protocol ("encode TOKENS" / "decode TEXT" lines in,
// "ok RESULT" / "error MESSAGE" lines out, flushed after each). Escaped forms
// (any byte can cross): -ex / -dx and the pipe verbs "encodex" / "decodex"
// carry the encoded text as lowercase hexadecimal of its bytes; a decodex
// byte becomes the rune of the same number (Latin-1: decode ranges over its
// string's runes), the encoded string leaves as its bytes (UTF-8).
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	_ "unsafe" // for go:linkname

	_ "golang.org/x/net/idna" // linked for its decode and encode
)

//go:linkname idnaDecode golang.org/x/net/idna.decode
func idnaDecode(encoded string) (string, error)

//go:linkname idnaEncode golang.org/x/net/idna.encode
func idnaEncode(prefix, s string) (string, error)

func encode(tokens string) (bool, string) {
	var b strings.Builder
	for _, tok := range strings.Fields(tokens) {
		if len(tok) < 3 || (tok[0] != 'u' && tok[0] != 'U') || tok[1] != '+' {
			panic("bad token " + tok)
		}
		v, err := strconv.ParseUint(tok[2:], 16, 32)
		if err != nil {
			panic(err)
		}
		if v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) {
			return false, fmt.Sprintf("failed: adapter: u+%04X is not a Unicode scalar value, so not in a Go string", v)
		}
		b.WriteRune(rune(v))
	}
	out, err := idnaEncode("", b.String())
	if err != nil {
		return false, "failed: " + err.Error()
	}
	return true, out
}

func decode(text string) (bool, []string) {
	out, err := idnaDecode(text)
	if err != nil {
		return false, []string{"failed: " + err.Error()}
	}
	toks := []string{}
	for _, r := range out {
		toks = append(toks, fmt.Sprintf("u+%04X", r))
	}
	return true, toks
}

// fromHex is the text of an escaped question: each byte as the rune of the
// same number.
func fromHex(text string) string {
	b, err := hex.DecodeString(text)
	if err != nil {
		panic(err)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	if len(os.Args) == 2 && strings.Contains(" -e -d -ex -dx ", " "+os.Args[1]+" ") {
		in, err := io.ReadAll(os.Stdin)
		if err != nil {
			panic(err)
		}
		if os.Args[1] == "-e" || os.Args[1] == "-ex" {
			ok, res := encode(string(in))
			if !ok {
				fmt.Fprintln(os.Stderr, res)
				os.Exit(1)
			}
			if os.Args[1] == "-ex" {
				res = hex.EncodeToString([]byte(res))
			}
			fmt.Fprintln(w, res)
			return
		}
		line := string(in)
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if os.Args[1] == "-dx" {
			line = fromHex(line)
		}
		ok, res := decode(line)
		if !ok {
			fmt.Fprintln(os.Stderr, res[0])
			os.Exit(1)
		}
		for _, t := range res {
			fmt.Fprintln(w, t)
		}
		return
	}
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: xnet_idna [-e|-d|-ex|-dx]")
		os.Exit(2)
	}
	r := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			if err == io.EOF {
				return
			}
			panic(err)
		}
		line = strings.TrimSuffix(line, "\n")
		verb, rest, _ := strings.Cut(line, " ")
		var ok bool
		var res string
		switch verb {
		case "encode":
			ok, res = encode(rest)
		case "encodex":
			if ok, res = encode(rest); ok {
				res = hex.EncodeToString([]byte(res))
			}
		case "decode", "decodex":
			if verb == "decodex" {
				rest = fromHex(rest)
			}
			var toks []string
			ok, toks = decode(rest)
			res = strings.Join(toks, " ")
		default:
			panic("unknown request: " + line)
		}
		status := "ok"
		if !ok {
			status = "error"
		}
		if res != "" {
			status += " " + res
		}
		fmt.Fprintln(w, status)
		w.Flush()
	}
}
