#!/usr/bin/env ruby
# frozen_string_literal: true
#
# punycheck `domain` adapter for Addressable's pure-Ruby IDNA on whole names.
#
# Wraps:   Addressable::IDNA.to_ascii(name) and .to_unicode(name) of
#          addressable/idna/pure, loaded directly (addressable/idna would
#          prefer the `idn` gem, libidn, when present). Checked: Debian
#          ruby-addressable 2.8.1-1 on Ruby 3.1.2; source:
#          lib/addressable/idna/pure.rb, to_ascii 67-89 (a name with no
#          multibyte UTF-8, or one its UTF8_REGEX of 42-51 does not match, is
#          returned unchanged; any other is lowercased by its Unicode data,
#          split at U+002E, and each part holding multibyte UTF-8 is NFKC'd and
#          Punycode-encoded), to_unicode 93-113 (split at U+002E, each
#          xn-- part decoded, the part kept if its Punycode is bad). The
#          package says "as described in RFC 3490": IDNA2003.
# Install: apt-get install ruby ruby-addressable (adapters/install.sh does it).
# Spec:    pipe:ruby adapters/domain/addressable.rb
#
# The pipe protocol of the domain codec, a line each way:
#   encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
#   decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
#   encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's
#                     bytes in hexadecimal, whatever they are: asked for a
#                     name that is not printable ASCII)
# TOKENS are u+XXXX code points separated by spaces; a name is made with
# pack("U*"), as the package itself makes strings, so a surrogate is passed
# as its three bytes. Failures: PunycodeBadInput, PunycodeBigOutput and
# PunycodeOverflow (pure.rb 379-383) are "error <Class>: <message>";
# anything else propagates, a crash. Adapter-side refusals, "error
# adapter: ...": a malformed token, a value above U+10FFFF, an answer to
# encode (not encodex) that is not printable ASCII, an unknown verb.

require 'addressable/idna/pure'

abort 'usage: addressable.rb' unless ARGV.empty?

IDNA = Addressable::IDNA
FAILURES = [IDNA::PunycodeBadInput, IDNA::PunycodeBigOutput, IDNA::PunycodeOverflow].freeze

# A question the adapter cannot put to the package.
class Refused < StandardError; end

def parse_tokens(text)
  text.split(/[ \t]+/).reject(&:empty?).map do |tok|
    raise Refused, 'adapter: bad token' unless tok.match?(/\A[uU]\+[0-9A-Fa-f]{1,8}\z/)

    cp = tok[2..].to_i(16)
    raise Refused, format('adapter: cannot pass u+%04X', cp) if cp > 0x10FFFF

    cp
  end.pack('U*')
end

def one_line(text)
  text.to_s.b.gsub(/[^\x20-\x7E]/n, '?').split.join(' ')
end

def answer(line)
  verb, rest = line.split(' ', 2)
  name = parse_tokens(rest || '')
  case verb
  when 'encode', 'encodex'
    out = IDNA.to_ascii(name).b
    if verb == 'encodex'
      out = out.unpack1('H*')
    elsif !out.match?(/\A[\x20-\x7E]*\z/n)
      raise Refused, 'adapter: the answer is not printable ASCII'
    end
    out.empty? ? 'ok' : "ok #{out}"
  when 'decode'
    out = IDNA.to_unicode(name)
    (['ok'] + out.b.unpack('U*').map { |cp| format('u+%04X', cp) }).join(' ')
  else
    raise Refused, 'adapter: unknown request'
  end
rescue Refused => e
  "error #{e.message}"
rescue *FAILURES => e
  "error #{e.class.name.split('::').last}: #{one_line(e.message)}"
end

$stdin.binmode
$stdout.sync = true
$stdin.each_line do |line|
  puts answer(line.b.chomp)
end
