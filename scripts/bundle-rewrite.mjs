// Exact text replacements in a dependency's file, for the rolldown plugins in scripts/. The
// dependencies they touch are pinned; if an update changes a text, the build stops and says
// which one and where, rather than bundle a file the rewrite no longer fits.

/** `code` with the one match of `search` replaced; throws when there is none or more than one. */
export function replaceOnce(plugin, code, id, search, replacement) {
  const found = typeof search === 'string' ? code.split(search).length - 1 : (code.match(new RegExp(search, 'g')) ?? []).length;
  if (found !== 1) {
    throw new Error(
      `${plugin}: expected one ${String(search).slice(0, 80)} in ${id}, found ${found}. ` +
        `The package changed: update scripts/${plugin}.mjs for its new text.`,
    );
  }
  return code.replace(search, replacement);
}
