// Where the page's scripts and the site's root are. The page runs either the sources (web/js/,
// as the embeds on other people's pages do) or build-site's bundles (web/generated/, as
// index.html does). Both folders are one level below the site root and both hold sim-worker.js,
// so URLs made from this file's import.meta.url are right in either form; a module deeper down
// would get its own folder in one form and the bundle's in the other (the bundler refuses that).

/** The folder of the running scripts: web/js/ or web/generated/. */
export const SCRIPTS = new URL('./', import.meta.url);

/** The site root: index.html, css/, generated/. */
export const SITE_ROOT = new URL('../', import.meta.url);
