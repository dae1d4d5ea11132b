/**
 * Relative links only: the site must work from any sub-path (`base`) and from
 * the file system (file://), so no href starts with `/`. A page's depth below
 * the base decides how many `../` lead back to the root.
 */

/** The page's path below the base, e.g. `index.html`, `reproduction.html`, `a/b.html`. */
export function pageFromBase(pathname: string, base: string): string {
  const b = base.endsWith('/') ? base : `${base}/`;
  let p = pathname.startsWith(b) ? pathname.slice(b.length) : pathname.replace(/^\/+/, '');
  if (p === '' || p.endsWith('/')) p += 'index.html';
  return p;
}

/** `../` repeated once per folder between the page and the site root; `./` at the root. */
export function rootPrefix(pathname: string, base: string): string {
  const depth = pageFromBase(pathname, base).split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** Relative href from the current page to a site path given from the root (`reproduction.html`, `figures/x.png`, `index.html#first-wave`). */
export function rel(pathname: string, base: string, target: string): string {
  if (/^[a-z]+:|^#|^\.\.?\//i.test(target)) return target;
  return rootPrefix(pathname, base) + target.replace(/^\/+/, '');
}
