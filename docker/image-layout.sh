#!/bin/sh
# The runtime layout of the image, from a built checkout (`pnpm install && pnpm build`):
# the launcher's workspace packages with their compiled output, the migrations, and the
# production dependencies only (installed offline from the store the build already filled).
# The Dockerfile runs it; CI runs it without docker to check the image's contents.
set -eu
out=${1:?usage: image-layout.sh <output directory>}
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
cp package.json pnpm-lock.yaml pnpm-workspace.yaml "$out/"
for dir in apps/* packages/* tests; do
  mkdir -p "$out/$dir"
  cp "$dir/package.json" "$out/$dir/"
  if [ -d "$dir/dist" ]; then cp -R "$dir/dist" "$out/$dir/"; fi
done
mkdir -p "$out/prisma"
cp -R prisma/migrations "$out/prisma/"
# Only what the launcher needs at run time: no dev dependencies, no tests, no command line.
(cd "$out" && pnpm install --prod --frozen-lockfile --offline --filter '@svc/launcher...' \
  --config.confirmModulesPurge=false >/dev/null)
rm -rf "$out/tests" "$out/apps/cli"
find "$out" -name '*.test.*' -delete
find "$out" -name '*.tsbuildinfo' -delete
