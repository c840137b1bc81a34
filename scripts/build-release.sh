#!/usr/bin/env bash
# The one build of a release: the locked dependencies, then the web app (dist/web). CI runs it before the tests
# (.ci/run) and the Dockerfile runs it in its build stage, so the container is built exactly as what was tested.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund
npm run build
