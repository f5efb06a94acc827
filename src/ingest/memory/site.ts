/**
 * What a project's home page says of the product (DESIGN §8 "Project memory", `rules`): its
 * name, a description and a category, from the page's title, meta description, Open Graph tags
 * and JSON-LD. Pure: HTML in, facts out (build.ts fetches the page and writes the memory).
 *
 * Which source wins, and why: JSON-LD written for a product (SoftwareApplication, Product,
 * WebApplication, MobileApplication, Organization, WebSite) is meant to describe it and often says
 * the most; Open Graph descriptions are written for link previews, usually one sentence about the
 * product; the meta description is often SEO copy but still about the product. So: JSON-LD, then
 * og:description, then the meta description, then twitter:description. The category comes only
 * from JSON-LD (`applicationCategory`, `category`, `genre`): no tag of the page's head says it, and
 * a guess would be worse than the user's own word.
 */
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { LIMITS } from '../../domain/limits.ts';

export interface SiteFacts {
  /** The product's name as the page gives it (og:site_name, JSON-LD name or the title). */
  name: string | undefined;
  description: string | undefined;
  category: string | undefined;
}

interface Head {
  title: string;
  meta: Map<string, string>;
  jsonLd: string[];
}

const PRODUCT_TYPES = ['SoftwareApplication', 'WebApplication', 'MobileApplication', 'Product', 'Service', 'Organization', 'Corporation', 'WebSite'];

export function readSite(html: string): SiteFacts {
  const head = readHead(html);
  const ld = productObject(head.jsonLd);
  // Script text is not entity-decoded by HTML, but many sites escape their JSON-LD strings anyway ("&amp;").
  const text = (value: unknown) => (typeof value === 'string' ? clean(decodeHTML(value)) || undefined : undefined);
  const description =
    text(ld?.description) ?? head.meta.get('og:description') ?? head.meta.get('description') ?? head.meta.get('twitter:description');
  const category = text(ld?.applicationCategory) ?? text(ld?.category) ?? text(ld?.genre);
  const name = head.meta.get('og:site_name') ?? text(ld?.name) ?? (clean(head.title) || undefined);
  return {
    name: name && bound(name, LIMITS.name),
    description: description && bound(description, LIMITS.text),
    category: category && bound(readableCategory(category), LIMITS.name),
  };
}

/** The head's title, meta tags (name or property, lower-cased) and JSON-LD blocks; the body is skipped. */
function readHead(html: string): Head {
  const head: Head = { title: '', meta: new Map(), jsonLd: [] };
  let inTitle = false;
  let script: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title' && head.title === '') inTitle = true;
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
          const content = clean(attrs.content ?? '');
          if (key !== '' && content !== '' && !head.meta.has(key)) head.meta.set(key, content);
        } else if (name === 'script' && (attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') script = '';
      },
      ontext(data) {
        if (inTitle) head.title += data;
        if (script !== undefined) script += data;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'script' && script !== undefined) {
          head.jsonLd.push(script);
          script = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return head;
}

/** The first JSON-LD object of a product-like type, looking into arrays and `@graph`; malformed blocks are skipped. */
function productObject(blocks: readonly string[]): Record<string, unknown> | undefined {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 4 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const object = node as Record<string, unknown>;
    if (typeof object['@type'] === 'string' || Array.isArray(object['@type'])) found.push(object);
    visit(object['@graph'], depth + 1);
  };
  for (const block of blocks) {
    try {
      visit(JSON.parse(block), 0);
    } catch {
      // A broken block on someone's site is their problem, not a reason to fail the memory.
    }
  }
  const rank = (o: Record<string, unknown>) => {
    const types = ([] as unknown[]).concat(o['@type']).filter((t): t is string => typeof t === 'string');
    const best = Math.min(...types.map((t) => PRODUCT_TYPES.indexOf(t)).filter((i) => i !== -1));
    return Number.isFinite(best) ? best : Infinity;
  };
  return found.filter((o) => rank(o) !== Infinity).sort((a, b) => rank(a) - rank(b))[0];
}

/** "DeveloperApplication" → "Developer application"; "BusinessApplication, Productivity" kept readable. */
function readableCategory(category: string): string {
  const spaced = category.replace(/^https?:\/\/schema\.org\//i, '').replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function bound(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
