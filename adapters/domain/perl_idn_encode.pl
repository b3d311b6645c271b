#!/usr/bin/perl
# punycheck `domain` adapter for Perl's Net::IDN::Encode on whole names.
#
# Wraps:   Net::IDN::Encode::domain_to_ascii($name, UseSTD3ASCIIRules => 1,
#          TransitionalProcessing => 0, AllowUnassigned => 0) and
#          domain_to_unicode($name, UseSTD3ASCIIRules => 1,
#          AllowUnassigned => 0): the module's defaults, spelled out
#          (checked: Net::IDN::Encode 2.500, Debian libnet-idn-encode-perl
#          2.500-3+b1, perl 5.36). Source: Net/IDN/Encode.pm, _domain 65-73
#          (the name split at U+002E, U+3002, U+FF0E and U+FF61, line 37,
#          before any mapping), to_ascii 42-53 and to_unicode 55-63 (an
#          all-ASCII label is passed through, only its length checked in
#          to_ascii; any other goes to UTS #46 alone); Net/IDN/UTS46.pm,
#          _process 50-146 and _validate_* 148-297 (UTS #46 with its
#          mapping tables of Unicode 10.0, Net/IDN/UTS46/_Mapping.pm line
#          16, and perl's own Bidi, Joining_Type and General_Category).
# Install: apt-get install libnet-idn-encode-perl (adapters/install.sh does it).
# Spec:    pipe:perl adapters/domain/perl_idn_encode.pl xs|pp
#
# Modes, which Punycode code the module runs (Net/IDN/Punycode.pm 19-30):
#   xs  what it loads by default, the XS code (Punycode.xs), whose decoder
#       corrupts the heap (adapters/gates/perl_xs.toml, adapters/FINDINGS.md
#       section 8): a later question may crash, or not, by what the worker
#       was asked before;
#   pp  the pure-Perl Net::IDN::Punycode::PP, by the module's own switch
#       $Net::IDN::Punycode::_NO_XS (line 22), what it falls back to where
#       the XS code is missing. The whole-name code (Encode.pm, UTS46.pm)
#       is the same in both; the gate uses pp, so that its answers repeat.
#
# The pipe protocol of the domain codec, a line each way:
#   encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
#   decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
#   encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's
#                     UTF-8 bytes in hexadecimal, whatever they are: asked
#                     for a name that is not printable ASCII)
# TOKENS are u+XXXX code points separated by spaces. Failures: the
# functions croak (documented: "will throw an exception on invalid input");
# any die inside them is "error MESSAGE", without croak's " at FILE line
# N.". Adapter-side refusals, "error adapter: ...": a malformed token, a
# value above U+10FFFF, an answer to encode (not encodex) that is not
# printable ASCII, an unknown verb. A perl string holds surrogates, which
# are passed (UTS #46 disallows them).
use strict;
use warnings;

my ($mode) = @ARGV;
die "usage: perl_idn_encode.pl xs|pp\n" unless @ARGV == 1 && ($mode eq 'xs' || $mode eq 'pp');
$Net::IDN::Punycode::_NO_XS = 1 if $mode eq 'pp';
require Net::IDN::Encode;
die "Net::IDN::Punycode runs its pure-Perl code\n" if $mode eq 'xs' && $INC{'Net/IDN/Punycode/PP.pm'};
die "Net::IDN::Punycode runs its XS code\n" if $mode eq 'pp' && !$INC{'Net/IDN/Punycode/PP.pm'};

# The name of TOKENS, or dies "adapter: ...".
sub parse_tokens {
    my ($text) = @_;
    my $s = '';
    for my $tok (split ' ', $text) {
        die "adapter: bad token\n" unless $tok =~ /\A[uU]\+([0-9A-Fa-f]{1,8})\z/;
        my $cp = hex $1;
        die sprintf("adapter: cannot pass u+%04X\n", $cp) if $cp > 0x10FFFF;
        no warnings;    # surrogates and non-characters
        $s .= chr $cp;
    }
    return $s;
}

# One printable line of a die's message, without croak's location.
sub one_line {
    my ($err) = @_;
    $err =~ s/ at \S+ line \d+(?:, <\w+> (?:line|chunk) \d+)?\.\n?\z//s;
    chomp $err;
    $err =~ s/[^\x20-\x7E]/?/g;
    return join ' ', split ' ', $err;
}

sub answer {
    my ($line) = @_;
    my ($verb, $rest) = split / /, $line, 2;
    $rest //= '';
    my $out = eval {
        my $name = parse_tokens($rest);
        no warnings;
        if ($verb eq 'encode' || $verb eq 'encodex') {
            my $ascii = Net::IDN::Encode::domain_to_ascii($name,
                UseSTD3ASCIIRules => 1, TransitionalProcessing => 0, AllowUnassigned => 0);
            if ($verb eq 'encodex') {
                utf8::encode($ascii);
                return unpack 'H*', $ascii;
            }
            die "adapter: the answer is not printable ASCII\n" if $ascii =~ /[^\x20-\x7E]/;
            return $ascii;
        }
        if ($verb eq 'decode') {
            my $text = Net::IDN::Encode::domain_to_unicode($name,
                UseSTD3ASCIIRules => 1, AllowUnassigned => 0);
            return join ' ', map { sprintf 'u+%04X', ord } split //, $text;
        }
        die "adapter: unknown request\n";
    };
    return 'error ' . one_line($@) unless defined $out;
    return $out eq '' ? 'ok' : "ok $out";
}

binmode STDIN;
binmode STDOUT;
$| = 1;
while (my $line = <STDIN>) {
    chomp $line;
    print answer($line), "\n";
}
