/**
 * Id and creation-time counters, the root app's and each component's (convex-test keeps them apart
 * too: a component's ids start at 10^12 × its number), kept in `meta` and written by the outermost
 * commit when they moved. Ids and creation times are never reused, as on Convex: a rollback leaves
 * the counters where they are, but forgets the components it numbered.
 */
import { randomFillSync } from "node:crypto";
import { localId } from "../values/convex-ids.ts";
import type { ComponentPath } from "./document.ts";

export type Counters = { nextDocId: number; lastCreationTime: number };

/** `meta` as the connection in use reads and writes it. */
export type MetaAccess = { meta(key: string): string | null; setMeta(key: string, value: string): void };

export class IdCounters {
  /** The root app's counters. */
  readonly root: Counters;
  /** Each component's own counters. */
  private readonly components = new Map<ComponentPath, Counters>();
  /** The counters' values as last committed to `meta`: a commit writes only those that moved. */
  private readonly stored = new Map<string, string>();
  /**
   * Components numbered by the open transaction: the number is in `meta` only if it commits, so a
   * rollback forgets them, lest the next new component be given the same number (and id range).
   */
  private readonly numbered: { component: ComponentPath; depth: number }[] = [];
  /** Random bits for ids, drawn from the OS a few hundred ids at a time. */
  private readonly randomPool = new BigUint64Array(256);
  private randomPoolNext = this.randomPool.length;

  constructor(private readonly access: MetaAccess) {
    this.root = {
      nextDocId: Number(access.meta("nextDocId") ?? 10000),
      lastCreationTime: Number(access.meta("lastCreationTime") ?? 0),
    };
  }

  /** A component's counters; `depth` is the open transaction's (0: none). */
  private of(component: ComponentPath, depth: number): Counters {
    if (component === "") return this.root;
    let counters = this.components.get(component);
    if (!counters) {
      let next = this.access.meta(`nextDocId:${component}`);
      if (next === null) {
        const number = Number(this.access.meta("components") ?? 0) + 1;
        this.access.setMeta("components", String(number));
        if (depth > 0) this.numbered.push({ component, depth });
        next = String(number * 1e12);
      }
      counters = {
        nextDocId: Number(next),
        lastCreationTime: Number(this.access.meta(`lastCreationTime:${component}`) ?? 0),
      };
      this.components.set(component, counters);
    }
    return counters;
  }

  /**
   * A new document id in `table`: digits, then the table name, as convex-test makes them; the digits
   * are a counter and 64 random bits (`localId`, decision 054). The counter reaches `meta` only with a
   * commit, so after a crash it may issue again a number an uncommitted (or rolled-back) transaction
   * took; the random part keeps the id new all the same, and keeps anyone from guessing another's.
   */
  newId(component: ComponentPath, table: string, depth: number): string {
    const counters = this.of(component, depth);
    const id = localId({ counter: BigInt(counters.nextDocId), random: this.randomIdPart() }, table);
    counters.nextDocId += 1;
    return id;
  }

  private randomIdPart(): bigint {
    if (this.randomPoolNext === this.randomPool.length) {
      randomFillSync(this.randomPool);
      this.randomPoolNext = 0;
    }
    return this.randomPool[this.randomPoolNext++];
  }

  /** A creation time: now, or just after the component's last one (they never repeat). */
  newCreationTime(component: ComponentPath, depth: number): number {
    const counters = this.of(component, depth);
    const now = Date.now();
    const time = now <= counters.lastCreationTime ? counters.lastCreationTime + 0.001 : now;
    counters.lastCreationTime = time;
    return time;
  }

  /** The `meta` rows of the counters that moved since they were last committed. */
  moved(): [key: string, value: string][] {
    const moved: [string, string][] = [];
    const addIfMoved = (key: string, value: number) => {
      const stored = String(value);
      if (this.stored.get(key) !== stored) moved.push([key, stored]);
    };
    addIfMoved("nextDocId", this.root.nextDocId);
    addIfMoved("lastCreationTime", this.root.lastCreationTime);
    for (const [component, counters] of this.components) {
      addIfMoved(`nextDocId:${component}`, counters.nextDocId);
      addIfMoved(`lastCreationTime:${component}`, counters.lastCreationTime);
    }
    return moved;
  }

  /** The outermost transaction committed, with these rows of `moved()`. */
  committed(written: [key: string, value: string][]): void {
    for (const [key, stored] of written) this.stored.set(key, stored);
    this.numbered.length = 0;
  }

  /** A nested transaction was released into its parent, now at `depth`. */
  released(depth: number): void {
    for (const numbered of this.numbered) numbered.depth = Math.min(numbered.depth, depth);
  }

  /** A transaction was rolled back, leaving `depth` open. */
  rolledBack(depth: number): void {
    for (let i = this.numbered.length - 1; i >= 0; i--) {
      const numbered = this.numbered[i];
      if (numbered.depth <= depth) continue;
      this.components.delete(numbered.component);
      this.numbered.splice(i, 1);
    }
  }
}
