#!/usr/bin/env bash
# Extracts the messages of every `_t("…")`, `_n("…", "…", n)` and `_p("context", "…")` call (ReminderCore's
# Translation.swift), and the templates marked `N_("…")` and `N_n("…", "…")` (Wording.swift), into
# po/reminderd.pot and merges them into each po/LL.po, marking new and
# changed ones for the translator (untranslated, or fuzzy). xgettext reads Swift as C (`-L C`):
# the calls keep literal arguments for that. The header has no creation date, so the template only
# changes when a message does. `--check-only` writes nothing and fails when the
# template in the repository differs from a fresh extraction (a message missing or left over).
set -eo pipefail
cd "$(dirname "$0")/.."
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
# Only the files that call the keywords. The C lexer reads a Swift multi-line string (`"""`) as an
# unterminated one and goes on at the next line: warnings without consequence, left out.
grep -rlE --include='*.swift' '\b(_[tnp]|N_n?)\("' Sources | LC_ALL=C sort | xargs xgettext -L C --from-code=UTF-8 \
  --keyword= --keyword=_t --keyword=_n:1,2 --keyword=_p:1c,2 --keyword=N_ --keyword=N_n:1,2 --add-comments=TRANSLATORS: --sort-by-file --no-location --no-wrap \
  --package-name=reminderd --msgid-bugs-address=reminderd -o "$fresh" 2>&1 \
  | { grep -v -e 'unterminated string literal' -e 'unterminated character constant' >&2 || true; }
sed -i -e 's/charset=CHARSET/charset=UTF-8/' -e '/^"POT-Creation-Date: /d' "$fresh"
if [ "${1:-}" = --check-only ]; then
  diff -u po/reminderd.pot "$fresh" >&2 || { echo "update-po: po/reminderd.pot is stale: run scripts/update-po.sh" >&2; exit 1; }
  exit 0
fi
cp "$fresh" po/reminderd.pot
for po in po/*.po; do
  msgmerge --quiet --update --backup=none --no-location --no-wrap "$po" po/reminderd.pot
done
