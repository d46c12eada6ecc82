import { describe, expect, it } from 'vitest';
import { matchView, VIEWS } from '../views';
import { parseRoute, routeHref } from './router';

describe('router', () => {
  it('parses paths, decodes segments and reads the query', () => {
    const r = parseRoute('#/memories/01J%2FX?q=deploy&kind=semantic');
    expect(r.path).toBe('/memories/01J/X');
    expect(r.segments).toEqual(['memories', '01J/X']);
    expect(r.query.get('q')).toBe('deploy');
    expect(parseRoute('').segments).toEqual([]);
    expect(parseRoute('#/').path).toBe('/');
  });

  it('builds hrefs that parse back to the same segments', () => {
    const href = routeHref('/recall/a b/ü', { q: 'x&y' });
    expect(href).toBe('#/recall/a%20b/%C3%BC?q=x%26y');
    expect(parseRoute(href).segments).toEqual(['recall', 'a b', 'ü']);
    expect(parseRoute(href).query.get('q')).toBe('x&y');
  });

  it('gives a route to the view that owns its first segments', () => {
    const overview = VIEWS.find((v) => v.id === 'overview');
    expect(matchView(['overview'])?.view).toBe(overview);
    expect(matchView(['overview', 'more'])?.rest).toEqual(['more']);
    expect(matchView(['nowhere'])).toBeNull();
    expect(matchView([])).toBeNull();
  });

  it('registers unique ids and paths', () => {
    expect(new Set(VIEWS.map((v) => v.id)).size).toBe(VIEWS.length);
    expect(new Set(VIEWS.map((v) => v.path)).size).toBe(VIEWS.length);
  });
});
