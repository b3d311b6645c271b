#!/bin/bash -eu
# OSS-Fuzz's projects/punycheck/build.sh: the repository's own build script,
# the one ClusterFuzzLite runs, does all of it (see its comments).
bash -eu "$SRC/punycheck/.clusterfuzzlite/build.sh"
