/**
 * The one way a Plot figure goes into a page (the article's <Figure>, the
 * explorer's charts, the audit's sections on the site and in `--html`):
 * `prepareSvg` makes a figure's SVG fit for inlining: several figures share one document,
 * so every id inside an SVG gets the figure's prefix (and so do the url(#…)
 * and href="#…" that point at them); the root gets role="img" and the ARIA
 * references to the figure's title and description. Inside an image every
 * element is presentational, so the marks' own aria-label and
 * aria-description (Plot's names for its mark groups) are dropped: ARIA
 * forbids a name on a <g> without a role.
 */
export function prepareSvg(svg: string, prefix: string, labelledBy: string, describedBy: string): string {
  let s = svg.replace(/<\?xml[^>]*\?>\s*/g, '').replace(/<!DOCTYPE[^>]*>\s*/gi, '').trim();
  const ids = new Set<string>();
  s = s.replace(/\sid="([^"]+)"/g, (_m, id: string) => {
    ids.add(id);
    return ` id="${prefix}-${id}"`;
  });
  if (ids.size) {
    s = s.replace(/url\(#([^)]+)\)/g, (m, id: string) => (ids.has(id) ? `url(#${prefix}-${id})` : m));
    s = s.replace(/(\s(?:xlink:)?href)="#([^"]+)"/g, (m, attr: string, id: string) => (ids.has(id) ? `${attr}="#${prefix}-${id}"` : m));
  }
  s = s.replace(/<(?!svg\b)([a-zA-Z][\w:-]*)(\s[^>]*)?>/g, (_m, tag: string, attrs = '') => `<${tag}${attrs.replace(/\s(?:aria-label|aria-description)="[^"]*"/g, '')}>`);
  s = s.replace(/<svg\b([^>]*)>/, (_m, attrs: string) => {
    const clean = attrs
      .replace(/\s(role|aria-labelledby|aria-describedby|aria-label)="[^"]*"/g, '');
    return `<svg${clean} role="img" aria-labelledby="${labelledBy}" aria-describedby="${describedBy}">`;
  });
  return s;
}

/** A safe HTML id from parts: `fig-first-wave-ttft`. */
export function slug(...parts: string[]): string {
  return parts.join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
}
