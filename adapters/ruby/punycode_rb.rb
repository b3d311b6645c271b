#!/usr/bin/env ruby
# frozen_string_literal: true
#
# punycheck adapter for two Ruby Punycode implementations (Debian bookworm,
# Ruby 3.1):
#
#   ruby punycode_rb.rb addressable [-e|-d]
#       Addressable::IDNA's pure-Ruby Punycode (ruby-addressable 2.8.1,
#       lib/addressable/idna/pure.rb, a port of RFC 3492 Appendix C), the
#       private class methods punycode_encode(string) / punycode_decode(string).
#       Loaded directly (addressable/idna/pure), not through addressable/idna,
#       which would prefer the `idn` gem (libidn) when present.
#   ruby punycode_rb.rb simpleidn [-e|-d]
#       SimpleIDN::Punycode.encode(string) / .decode(string)
#       (ruby-simpleidn 0.1.1, lib/simpleidn.rb).
#
# Install: apt-get install ruby ruby-addressable ruby-simpleidn
# Supports encode and decode; no Appendix A case flags (U+ is sent as u+,
# decoded code points are printed u+).
# Strings: Addressable converts with pack("U*")/unpack("U*"), which carry any
# value up to 0x7FFFFFFF (surrogates too), so every such token is passed;
# SimpleIDN needs valid UTF-8, so a surrogate or a value above U+10FFFF is
# refused by the adapter itself ("failed: adapter: ...").
# Errors: Addressable raises PunycodeBadInput / PunycodeOverflow /
# PunycodeBigOutput ("invalid input" / "arithmetic overflow" / "input or
# output is too large"); SimpleIDN raises SimpleIDN::ConversionError whose
# message names the kind (punycode_bad_input(N), punycode_overflow(N),
# "Illegal input >= 0x80"). Any other exception propagates (a crash).
#
# Modes: -e / -d follow the RFC 3492 Appendix C wrapper convention; with no
# mode, the pipe protocol ("encode TOKENS" / "decode TEXT" lines in,
# "ok RESULT" / "error MESSAGE" lines out, flushed after each). Escaped forms
# (any byte can cross): -ex / -dx and the pipe verbs "encodex" / "decodex"
# carry the encoded text as lowercase hexadecimal of its bytes; a decodex
# byte becomes the character of the same number (Latin-1, in a UTF-8
# string), the encoded string leaves as its UTF-8 bytes.

which, mode = ARGV
unless %w[addressable simpleidn].include?(which) && ARGV.size <= 2 && [nil, '-e', '-d', '-ex', '-dx'].include?(mode)
  warn 'usage: punycode_rb.rb addressable|simpleidn [-e|-d|-ex|-dx]'
  exit 2
end

if which == 'addressable'
  require 'addressable/idna/pure'
  IDNA = Addressable::IDNA
  KINDS = {
    IDNA::PunycodeBadInput => 'invalid input',
    IDNA::PunycodeOverflow => 'arithmetic overflow',
    IDNA::PunycodeBigOutput => 'input or output is too large'
  }.freeze
  MAX_CP = 0x7FFFFFFF
  def to_string(cps) = cps.pack('U*')
  def to_cps(str) = str.unpack('U*')
  def impl_encode(str) = IDNA.send(:punycode_encode, str)
  def impl_decode(str) = IDNA.send(:punycode_decode, str)
  def failure(err)
    kind = KINDS[err.class]
    raise err unless kind # not one of its documented exceptions

    kind
  end
else
  require 'simpleidn'
  MAX_CP = 0x10FFFF
  def to_string(cps) = cps.pack('U*')
  def to_cps(str) = str.codepoints
  def impl_encode(str) = SimpleIDN::Punycode.encode(str)
  def impl_decode(str) = SimpleIDN::Punycode.decode(str)
  def failure(err)
    raise err unless err.instance_of?(SimpleIDN::ConversionError)

    case err.message
    when /\Apunycode_overflow/ then 'arithmetic overflow'
    when /\Apunycode_bad_input/, /\AIllegal input/ then 'invalid input'
    else "failed: #{err.message}"
    end
  end
end

# Returns [ok, text].
def encode(tokens)
  cps = tokens.split.map do |tok|
    raise ArgumentError, "bad token #{tok}" unless tok =~ /\A[uU]\+([0-9A-Fa-f]+)\z/

    cp = Regexp.last_match(1).to_i(16)
    if cp > MAX_CP || (MAX_CP == 0x10FFFF && cp.between?(0xD800, 0xDFFF))
      return [false, format('failed: adapter: u+%04X cannot be put in its string', cp)]
    end

    cp
  end
  begin
    [true, impl_encode(to_string(cps))]
  rescue StandardError => e
    [false, failure(e)]
  end
end

# Returns [ok, tokens array | message].
def decode(text)
  out = begin
    impl_decode(text.dup.force_encoding(Encoding::UTF_8))
  rescue StandardError => e
    return [false, failure(e)]
  end
  [true, to_cps(out).map { |cp| format('u+%04X', cp) }]
end

# The escaped forms: the encoded text to and from hexadecimal.
def to_hex(text) = text.unpack1('H*')
def from_hex(hex) = [hex].pack('H*').unpack('C*').pack('U*')

$stdin.binmode
$stdout.binmode
if mode
  input = $stdin.read || ''
  if mode.start_with?('-e')
    ok, res = encode(input)
    res = "#{mode == '-ex' ? to_hex(res) : res}\n" if ok
  else
    line = input.split("\n", 2).first || ''
    ok, res = decode(mode == '-dx' ? from_hex(line) : line)
    res = res.map { |t| "#{t}\n" }.join if ok
  end
  unless ok
    warn res
    exit 1
  end
  $stdout.write(res)
  exit 0
end

$stdout.sync = true
$stdin.each_line do |line|
  line = line.chomp("\n")
  # A regexp, not ' ': String#split(' ') is awk-style and would drop the
  # spaces that begin the text of "decode  a-".
  verb, rest = line.split(/ /, 2)
  rest ||= ''
  case verb
  when 'encode' then ok, res = encode(rest)
  when 'encodex'
    ok, res = encode(rest)
    res = to_hex(res) if ok
  when 'decode', 'decodex'
    ok, res = decode(verb == 'decodex' ? from_hex(rest) : rest)
    res = res.join(' ') if ok
  else raise ArgumentError, "unknown request: #{line}"
  end
  $stdout.write("#{ok ? 'ok' : 'error'}#{res.empty? ? '' : " #{res}"}\n")
end
