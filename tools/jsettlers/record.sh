#!/usr/bin/env bash
# Records robot-only games of JSettlers2 as full game event logs (.soclog), for
# `sgn convert --from jsettlers` and its tests. See README.md beside this script.
#
#   tools/jsettlers/record.sh JSETTLERS2 OUT_DIR GAMES [MIX] [TIMEOUT_SECONDS] [--client-copies]
#
# JSETTLERS2: a checkout of github.com/jdmonin/JSettlers2, or a bare git repository of it
# (its HEAD is used). MIX: 1 classic 4-player games; 2 classic 4- and 6-player (default);
# 3 half of them on the sea board too. Needs javac 17 or later and Gson (Debian:
# apt-get install -y openjdk-17-jdk-headless libgoogle-gson-java); no network, no Gradle.
set -euo pipefail
positional=() flags=()
for arg in "$@"; do
    case $arg in
        --client-copies) flags+=("$arg") ;;
        -*) echo "record.sh: unknown option $arg" >&2; exit 2 ;;
        *) positional+=("$arg") ;;
    esac
done
if [ ${#positional[@]} -lt 3 ] || [ ${#positional[@]} -gt 5 ]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
source_dir=${positional[0]} out_dir=${positional[1]} games=${positional[2]}
mix=${positional[3]:-2} timeout=${positional[4]:-900}
here=$(cd "$(dirname "$0")" && pwd)

command -v javac >/dev/null || { echo "record.sh: javac is missing (apt-get install -y openjdk-17-jdk-headless)" >&2; exit 2; }
gson=$(ls /usr/share/java/gson.jar 2>/dev/null || true)
[ -n "$gson" ] || { echo "record.sh: Gson is missing (apt-get install -y libgoogle-gson-java)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$source_dir/src/main/java" ]; then
    tree=$source_dir
else                                # a bare repository (or a .git folder): its HEAD
    tree=$work/src
    mkdir -p "$tree"
    git --git-dir="$source_dir" archive HEAD | tar -x -C "$tree"
fi

echo "record.sh: compiling JSettlers2 (about a minute)" >&2
find "$tree/src/main/java" -name '*.java' > "$work/sources"
mkdir -p "$work/classes"
javac -nowarn -encoding UTF-8 -cp "$gson" -d "$work/classes" @"$work/sources" 2>"$work/javac.log" \
    || { cat "$work/javac.log" >&2; exit 2; }
javac -nowarn -encoding UTF-8 -cp "$work/classes:$gson" -d "$work/classes" "$here/RecordGames.java"

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
echo "record.sh: playing $games games (mix $mix) into $out_dir" >&2
# The server and its robots write their own chatter: show the recorder's lines only (the
# rest is kept in OUT_DIR/record.log), and exit as the recorder did (1: fewer games than
# asked before the timeout).
set +e
(cd "$work" && java -cp "$work/classes:$tree/src/main/resources:$gson" RecordGames \
    "$games" "$mix" "$out_dir" "$timeout" ${flags[@]+"${flags[@]}"} 2>&1) | tee "$out_dir/record.log" \
    | grep --line-buffered -E '^(wrote|could not|finished)'
exit "${PIPESTATUS[0]}"
