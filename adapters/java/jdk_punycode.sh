#!/bin/sh
# Runs adapters/java/JdkPunycode.java (built by adapters/install.sh into
# adapters/build/java) with the export it needs. Arguments: [-e|-d|-ex|-dx].
here=$(cd "$(dirname "$0")" && pwd)
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  --add-exports java.base/jdk.internal.icu.impl=ALL-UNNAMED \
  -cp "$here/../build/java" JdkPunycode "$@"
