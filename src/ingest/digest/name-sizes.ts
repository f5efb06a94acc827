/**
 * A project's running count of how its threads write each name family, so a run can tell an open
 * model family (analyze/model-sizes.ts: "QwQ-32B") or a piece of hardware (analyze/hardware-names.ts:
 * "an Epyc CPU") that the sentence rules took for a product ("switched to QwQ", "switched to
 * Epyc") from a product. The counts are stored (store `name_sizes`) and grow with every run, so
 * a daily run's few threads are judged with everything the project has read before.
 *
 * Names the project tracks, and names the labels call products (analyze/data/product-names.json),
 * are products whatever the counts say: the founder said so, or readers did.
 */
import { eachComment, type ThreadPost } from '../../domain/thread.ts';
import { hardwareFamilies, isHardwareFamily } from '../analyze/hardware-names.ts';
import { isModelFamily, sizedFamilies, type SizeEvidence } from '../analyze/model-sizes.ts';
import { familyKey, knownNames } from '../analyze/products.ts';
import type { NameSizesTable } from '../../store/schema.ts';

/** How a project's threads write a family: with a size, before a part's name, and as a product. */
type NameEvidence = SizeEvidence & {
  /** Passages writing the family right before a hardware noun ("Epyc CPU"). */
  hardware: number;
};

export class NameSizes {
  private readonly counts = new Map<string, NameEvidence>();
  /** Families counted since the last settle(), each with whether it was a non-product before. */
  private readonly changed = new Map<string, boolean>();
  private readonly products: Set<string>;

  constructor(
    private readonly projectId: string,
    tracked: readonly string[],
  ) {
    this.products = new Set([...tracked.map(familyKey), ...knownNames().products]);
  }

  /** The counts as the store holds them before this run. */
  seed(rows: readonly NameSizesTable[]): void {
    for (const r of rows) this.counts.set(r.family, { sized: r.sized, hardware: r.hardware, mentions: r.mentions });
  }

  /**
   * Counts the passages of a batch (a title with its post text, or one comment), each once for
   * every family it writes with a size, and once for every family it writes before a hardware
   * noun. What the project read before (`stored`: its stored posts, each with its stored comment
   * ids) is not counted again: a re-run, or a thread collected again with new comments, counts
   * only what is new.
   */
  weighPassages(threads: readonly (ThreadPost & { id: string })[], stored: ReadonlyMap<string, ReadonlySet<string>>): void {
    for (const thread of threads) {
      const seen = stored.get(thread.id);
      if (!seen) this.weighPassage(`${thread.title}\n${thread.selftext}`);
      for (const c of eachComment(thread.comments)) {
        if (!seen?.has(c.id)) this.weighPassage(c.body);
      }
    }
  }

  /** Counts product mentions new to the project (signals it does not hold yet), by the product's name. */
  weighMentions(products: readonly string[]): void {
    for (const name of products) this.bump(familyKey(name), 'mentions');
  }

  /** A product name whose family the project's threads write as a model ("QwQ-32B") or as hardware ("Epyc CPU"). */
  notAProduct(product: string): boolean {
    return this.isNotProduct(familyKey(product));
  }

  /** The rows to store (families counted since the last call, with their totals) and the families those counts showed to be no products. */
  settle(): { rows: NameSizesTable[]; notProducts: Set<string> } {
    const rows = [...this.changed].map(([family]) => ({ project_id: this.projectId, family, ...this.counts.get(family)! }));
    const notProducts = new Set([...this.changed].filter(([family, was]) => !was && this.isNotProduct(family)).map(([family]) => family));
    this.changed.clear();
    return { rows, notProducts };
  }

  private weighPassage(text: string): void {
    for (const family of sizedFamilies(text)) this.bump(family, 'sized');
    for (const family of hardwareFamilies(text)) this.bump(family, 'hardware');
  }

  private isNotProduct(family: string): boolean {
    const e = this.counts.get(family);
    return e !== undefined && !this.products.has(family) && (isModelFamily(e) || isHardwareFamily(e));
  }

  private bump(family: string, field: keyof NameEvidence): void {
    const e = this.counts.get(family) ?? { sized: 0, hardware: 0, mentions: 0 };
    if (!this.changed.has(family)) this.changed.set(family, this.isNotProduct(family));
    e[field] += 1;
    this.counts.set(family, e);
  }
}
