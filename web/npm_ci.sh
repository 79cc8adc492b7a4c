#!/bin/sh
# npm ci in the build tree's web-npm/ (web/CMakeLists.txt). A failure (offline, registry down) is a
# warning, not a build failure: the UI is then assembled without its chart library.
# Usage: npm_ci.sh <web-npm dir> <npm>
cd "$1" || exit 1
"$2" ci --no-audit --no-fund --loglevel=error ||
  echo "warning: npm ci failed (offline?): the dashboard is built without its chart library; the next build retries"
exit 0
