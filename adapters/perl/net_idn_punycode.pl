#!/usr/bin/perl
# punycheck adapter for Net::IDN::Punycode (Claus Faerber; Debian bookworm
# libnet-idn-encode-perl 2.500-3+b1), two implementations in one module:
#
#   perl net_idn_punycode.pl xs [-e|-d]   the XS code (Punycode.xs), what
#                                          Net::IDN::Punycode loads by default
#   perl net_idn_punycode.pl pp [-e|-d]   the pure-Perl fallback,
#                                          Net::IDN::Punycode::PP
#
# (IDNA::Punycode 1.100, Debian libidna-punycode-perl, is a deprecated wrapper
# that calls Net::IDN::Punycode; it has no Punycode code of its own.)
#
# Install: apt-get install libnet-idn-encode-perl
# Wraps encode_punycode($string) and decode_punycode($string). Perl strings
# hold any code point (also surrogates and values above U+10FFFF), so every
# 32-bit token is passed as it is. No Appendix A case flags (U+ is sent as u+,
# decoded code points are printed u+). Errors: the functions croak with a
# message (documented: "will throw an exception on invalid input"), with no
# overflow kind; a croak from the module becomes "failed: <message>", any
# other die propagates.
#
# Modes: -e / -d follow the RFC 3492 Appendix C wrapper convention; with no
# mode, the pipe protocol ("encode TOKENS" / "decode TEXT" lines in, "ok
# RESULT" / "error MESSAGE" out, flushed); escaped forms -ex, -dx: see to_hex.
use strict;
use warnings;

my ($which, $mode) = @ARGV;
die "usage: net_idn_punycode.pl xs|pp [-e|-d|-ex|-dx]\n"
    unless defined $which && ($which eq 'xs' || $which eq 'pp')
    && @ARGV <= 2 && (!defined $mode || $mode =~ /\A-[ed]x?\z/);

my ($enc, $dec, $file);
if ($which eq 'xs') {
    require Net::IDN::Punycode;
    die "Net::IDN::Punycode fell back to its pure-Perl code\n" if $INC{'Net/IDN/Punycode/PP.pm'};
    ($enc, $dec, $file) = (\&Net::IDN::Punycode::encode_punycode, \&Net::IDN::Punycode::decode_punycode, 'Punycode');
} else {
    require Net::IDN::Punycode::PP;
    ($enc, $dec, $file) = (\&Net::IDN::Punycode::PP::encode_punycode, \&Net::IDN::Punycode::PP::decode_punycode, 'PP.pm|Punycode');
}

# A croak from the module (its documented failure): its message, without the
# " at FILE line N." that croak appends.
sub failure {
    my ($err) = @_;
    die $err unless $err =~ /^(.*?) at \S+ line \d+(?:, <\w+> (?:line|chunk) \d+)?\.\n?\z/s;
    my $msg = $1;
    die $err unless $msg =~ /^(non-base character|invalid digit|incomplete encoded code point|input exceeds punycode limit|invalid code point)/;
    return "failed: $msg";
}

sub encode {
    my ($tokens) = @_;
    my $s = '';
    for my $tok (split ' ', $tokens) {
        die "bad token $tok\n" unless $tok =~ /^[uU]\+([0-9A-Fa-f]+)$/;
        no warnings;    # surrogates, non-characters and values above U+10FFFF
        $s .= chr(hex $1);
    }
    my $out = eval { no warnings; $enc->($s) };
    return (0, failure($@)) unless defined $out;
    return (1, $out);
}

sub decode {
    my ($text) = @_;
    my $out = eval { no warnings; $dec->($text) };
    return (0, failure($@)) unless defined $out;
    return (1, join ' ', map { sprintf 'u+%04X', ord } split //, $out);
}

# The escaped forms (any byte can cross): -ex / -dx and the pipe verbs
# "encodex" / "decodex" carry the encoded text as lowercase hexadecimal of its
# bytes; a decodex byte becomes the character of the same number (Latin-1),
# the encoded string leaves as its UTF-8 bytes. (Kept below decode: the gates'
# baselines quote this file's line numbers 68 and 70.)
sub to_hex { my ($s) = @_; utf8::encode($s); return unpack 'H*', $s; }
sub from_hex { return pack 'H*', $_[0]; }

binmode STDIN;
binmode STDOUT;
if (defined $mode) {
    local $/;
    my $in = <STDIN> // '';
    my ($ok, $res);
    if ($mode eq '-e' || $mode eq '-ex') {
        ($ok, $res) = encode($in);
        $res = ($mode eq '-ex' ? to_hex($res) : $res) . "\n" if $ok;
    } else {
        $in =~ s/\n.*\z//s;
        ($ok, $res) = decode($mode eq '-dx' ? from_hex($in) : $in);
        $res = join '', map { "$_\n" } split / /, $res if $ok;
    }
    if (!$ok) { print STDERR "$res\n"; exit 1; }
    print $res;
    exit 0;
}
$| = 1;
while (my $line = <STDIN>) {
    chomp $line;
    my ($verb, $rest) = split / /, $line, 2;
    $rest //= '';
    my ($ok, $res);
    if ($verb eq 'encode') { ($ok, $res) = encode($rest); }
    elsif ($verb eq 'encodex') { ($ok, $res) = encode($rest); $res = to_hex($res) if $ok; }
    elsif ($verb eq 'decode') { ($ok, $res) = decode($rest); }
    elsif ($verb eq 'decodex') { ($ok, $res) = decode(from_hex($rest)); }
    else { die "unknown request: $line\n"; }
    print(($ok ? 'ok' : 'error') . ($res ne '' ? " $res" : '') . "\n");
}
