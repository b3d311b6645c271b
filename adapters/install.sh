#!/usr/bin/env bash
# Installs the third-party Punycode implementations that the adapters in this
# folder wrap, and builds the compiled adapters into adapters/build/.
# Idempotent and quick when everything is already there: apt, npm and cargo are
# only asked for what is missing, and a build is redone only when its sources
# are newer than its output.
#
#   bash adapters/install.sh          # everything
#   bash adapters/install.sh --list   # the adapters and how to run them (exec: specs)
#
# Needs root for apt-get (CI and the project's machines are root). Registries:
# Debian (apt), npm, crates.io. Cargo builds go to $CARGO_TARGET_DIR
# (default /work/target-adapters if /work exists, else adapters/build/target).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/build
mkdir -p "$build"

list() { # one line per adapter: the exec: spec, a tab, what it wraps
  printf '%s\t%s\n' \
    "exec:python3 $here/python/cpython_codec.py" "CPython punycode codec" \
    "exec:node $here/node/punycode_js.js builtin" "Node's bundled punycode" \
    "exec:node $here/node/punycode_js.js 1.4.1" "npm punycode@1.4.1" \
    "exec:node $here/node/punycode_js.js 2.3.1" "npm punycode@2.3.1" \
    "exec:$build/libidn" "GNU Libidn 1.x (case flags)" \
    "exec:$build/xnet_idna" "golang.org/x/net/idna" \
    "exec:$here/java/jdk_punycode.sh" "JDK jdk.internal.icu.impl.Punycode (case flags)" \
    "exec:perl $here/perl/net_idn_punycode.pl xs" "Net::IDN::Punycode (XS)" \
    "exec:perl $here/perl/net_idn_punycode.pl pp" "Net::IDN::Punycode::PP" \
    "exec:ruby $here/ruby/punycode_rb.rb addressable" "Addressable::IDNA (pure Ruby)" \
    "exec:ruby $here/ruby/punycode_rb.rb simpleidn" "SimpleIDN::Punycode" \
    "exec:$build/idna-0.1.5" "Rust idna 0.1.5" \
    "exec:$build/punycode-0.4.1" "Rust punycode 0.4.1"
}
if [[ ${1:-} == --list ]]; then list; exit 0; fi

# Debian packages: install only the missing ones (one apt-get update, only then).
apt_pkgs=(python3 nodejs npm gcc libc6-dev pkg-config libidn-dev golang-go golang-golang-x-net-dev
          openjdk-17-jdk-headless perl libnet-idn-encode-perl ruby ruby-addressable ruby-simpleidn)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Tools that may come from elsewhere (pyenv's python3, nodesource's node): accept them.
command -v python3 >/dev/null && missing=("${missing[@]/python3}")
command -v node >/dev/null && command -v npm >/dev/null && missing=("${missing[@]/nodejs}") && missing=("${missing[@]/npm}")
command -v javac >/dev/null && [[ $(javac -version 2>&1) == "javac 17"* ]] && missing=("${missing[@]/openjdk-17-jdk-headless}")
read -r -a missing <<<"${missing[*]}"
if ((${#missing[@]})); then
  echo "install.sh: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

newer() { # newer OUTPUT SOURCE...: true when OUTPUT is missing or older than a source
  local out=$1; shift
  [[ ! -e $out ]] && return 0
  local s; for s in "$@"; do [[ $s -nt $out ]] && return 0; done
  return 1
}

# npm: the two pinned punycode.js releases, tr46 and whatwg-url (package.json aliases).
if [[ ! -f $here/node/node_modules/punycode-1.4.1/package.json || ! -f $here/node/node_modules/punycode-2.3.1/package.json \
      || ! -f $here/node/node_modules/tr46-7.0.0/package.json \
      || ! -f $here/node/node_modules/whatwg-url-17.3.0/package.json \
      || ! -f $here/node/node_modules/whatwg-url-16.0.1/package.json ]] \
   || newer "$here/node/node_modules/.package-lock.json" "$here/node/package.json"; then
  echo "install.sh: npm install in adapters/node"
  (cd "$here/node" && npm install --no-audit --no-fund --silent)
fi

# C: libidn.
if newer "$build/libidn" "$here/c/libidn.c"; then
  echo "install.sh: cc adapters/c/libidn.c"
  cc -O2 -Wall -o "$build/libidn" "$here/c/libidn.c" $(pkg-config --cflags --libs libidn)
fi

# Go: golang.org/x/net/idna from Debian, GOPATH mode.
if newer "$build/xnet_idna" "$here"/go/xnet_idna/*; then
  echo "install.sh: go build adapters/go/xnet_idna"
  (cd "$here/go/xnet_idna" && GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$build/gocache" GOFLAGS= \
     go build -o "$build/xnet_idna" .)
fi

# Java: the JDK's internal Punycode.
if newer "$build/java/JdkPunycode.class" "$here/java/JdkPunycode.java"; then
  echo "install.sh: javac adapters/java/JdkPunycode.java"
  javac --add-exports java.base/jdk.internal.icu.impl=ALL-UNNAMED -d "$build/java" "$here/java/JdkPunycode.java"
fi

# Rust: one small cargo project per crate, each with its own Cargo.lock.
if [[ -d /work ]]; then target=${CARGO_TARGET_DIR:-/work/target-adapters}; else target=${CARGO_TARGET_DIR:-$build/target}; fi
for crate in idna_0_1_5:idna-0.1.5 punycode_0_4_1:punycode-0.4.1; do
  dir=${crate%%:*} name=${crate##*:}
  if newer "$build/$name" "$here/rust/protocol.rs" "$here/rust/$dir/Cargo.toml" "$here/rust/$dir/Cargo.lock" "$here/rust/$dir"/src/*.rs; then
    echo "install.sh: cargo build adapters/rust/$dir"
    CARGO_TARGET_DIR=$target cargo build --quiet --release --locked --manifest-path "$here/rust/$dir/Cargo.toml"
    pkg=$(sed -n 's/^name = "\(.*\)"/\1/p' "$here/rust/$dir/Cargo.toml" | head -1)
    cp "$target/release/$pkg" "$build/$name"
  fi
done

# The label codec's adapters (adapters/label/, pipe: programs): the PyPI idna
# package, Go's x/net/idna, and the idna crate before and after
# RUSTSEC-2024-0421.
if ! python3 -c 'import idna, sys; sys.exit(idna.__version__ != "3.13")' 2>/dev/null; then
  echo "install.sh: pip install idna==3.13"
  python3 -m pip install --quiet 'idna==3.13'
fi
if newer "$build/label-go-idna" "$here"/label/go_idna/*; then
  echo "install.sh: go build adapters/label/go_idna"
  (cd "$here/label/go_idna" && GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$build/gocache" GOFLAGS= \
     go build -o "$build/label-go-idna" .)
fi
for release in 0.5.0:idna-0-5 1.1.0:idna-1-1; do
  version=${release%%:*} feature=${release##*:}
  if newer "$build/label-idna-$version" "$here"/label/rust_idna/Cargo.* "$here"/label/rust_idna/src/*.rs; then
    echo "install.sh: cargo build adapters/label/rust_idna --features $feature"
    CARGO_TARGET_DIR=$target cargo build --quiet --release --locked --features "$feature" \
      --manifest-path "$here/label/rust_idna/Cargo.toml"
    cp "$target/release/punycheck-label-idna" "$build/label-idna-$version"
  fi
done
for cmd in "node $here/label/node_url.js" "python3 $here/label/cpython_idna.py" \
           "python3 $here/label/python_idna.py" "$build/label-go-idna" \
           "$build/label-idna-0.5.0" "$build/label-idna-1.1.0"; do
  got=$(echo 'decode xn--bcher-kva' | $cmd) || { echo "install.sh: $cmd does not run" >&2; exit 1; }
  [[ $got == 'ok u+0062 u+00FC u+0063 u+0068 u+0065 u+0072' ]] \
    || { echo "install.sh: $cmd decodes xn--bcher-kva as '$got'" >&2; exit 1; }
done

# The domain codec's adapters (adapters/domain/, pipe: programs): Node's and
# tr46, the PyPI idna package, CPython's idna codec, Go's x/net/idna, the
# idna crate 1.1.0, Perl's Net::IDN::Encode and Ruby's Addressable (their
# Debian packages, above) on whole names; each encodes b\u00fccher.de.
if newer "$build/domain-go-idna" "$here"/domain/go_idna/*; then
  echo "install.sh: go build adapters/domain/go_idna"
  (cd "$here/domain/go_idna" && GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$build/gocache" GOFLAGS= \
     go build -o "$build/domain-go-idna" .)
fi
if newer "$build/domain-idna-1.1.0" "$here"/domain/rust_idna/Cargo.* "$here"/domain/rust_idna/src/*.rs; then
  echo "install.sh: cargo build adapters/domain/rust_idna"
  CARGO_TARGET_DIR=$target cargo build --quiet --release --locked --manifest-path "$here/domain/rust_idna/Cargo.toml"
  cp "$target/release/punycheck-domain-idna" "$build/domain-idna-1.1.0"
fi
for cmd in "node $here/domain/node_domain.js node-url" "node $here/domain/node_domain.js tr46-strict" \
           "node $here/domain/node_domain.js tr46-url" "node $here/domain/node_domain.js node-host" \
           "node $here/domain/node_domain.js whatwg-url" "node $here/domain/node_domain.js whatwg-url-16" \
           "python3 $here/domain/python_idna.py idna2008" \
           "python3 $here/domain/cpython_idna.py" "$build/domain-go-idna lookup" "$build/domain-go-idna display" \
           "$build/domain-idna-1.1.0 url" "$build/domain-idna-1.1.0 strict" \
           "perl $here/domain/perl_idn_encode.pl xs" "perl $here/domain/perl_idn_encode.pl pp" "ruby $here/domain/addressable.rb"; do
  got=$(echo 'encode u+0062 u+00FC u+0063 u+0068 u+0065 u+0072 u+002E u+0064 u+0065' | $cmd) \
    || { echo "install.sh: $cmd does not run" >&2; exit 1; }
  [[ $got == 'ok xn--bcher-kva.de' ]] || { echo "install.sh: $cmd encodes bücher.de as '$got'" >&2; exit 1; }
done

# The validators' adapters (adapters/validators/, pipe: programs answering a
# verdict): Python's jsonschema, whose idn-hostname is the idna package's, and
# @hyperjump/json-schema (npm, installed with adapters/node above).
if ! python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("jsonschema") != "4.26.0")' 2>/dev/null; then
  echo "install.sh: pip install jsonschema==4.26.0"
  python3 -m pip install --quiet 'jsonschema==4.26.0'
fi
for cmd in "python3 $here/validators/jsonschema_py.py idn-hostname" "node $here/validators/hyperjump.mjs"; do
  got=$(printf 'encode u+0062 u+00FC u+0063 u+0068 u+0065 u+0072 u+002E u+0064 u+0065\nencode u+002D\n' | $cmd 2>/dev/null) \
    || { echo "install.sh: $cmd does not run" >&2; exit 1; }
  [[ $got == $'valid\ninvalid' ]] || { echo "install.sh: $cmd judges bücher.de and - as '$got'" >&2; exit 1; }
done

# Every adapter: check that it runs and loads its implementation.
while IFS=$'\t' read -r spec what; do
  cmd=${spec#exec:}
  got=$(echo 'u+0061 u+00E9' | $cmd -e) || { echo "install.sh: $what ($cmd) does not run" >&2; exit 1; }
  [[ $got == a-bga ]] || { echo "install.sh: $what ($cmd) encodes a, e-acute as '$got', not 'a-bga'" >&2; exit 1; }
done < <(list)
echo "install.sh: 13 adapters ready (bash adapters/install.sh --list), 6 label adapters, 11 domain adapters and 2 validators"
