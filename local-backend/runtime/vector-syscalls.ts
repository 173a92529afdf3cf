/**
 * `ctx.vectorSearch` (actions): a search of one of the component's vector indexes, read in a read
 * transaction of its own (Convex reads it at one timestamp, outside the action's calls), refused in
 * Convex's words and order; the answer is `{ results: [{ _id, _score }] }`, best first.
 */
import type { Value } from "convex/values";
import {
  compileVectorQuery,
  parseVectorQuery,
  type VectorQuery,
  type VectorQueryJson,
} from "../database/vector-search.ts";
import type { ComponentPath } from "../storage/document.ts";
import { SYSCALL } from "./convex-abi.ts";
import type { Syscall } from "./execution.ts";
import type { Runner } from "./runner.ts";
import { stagedIndexError } from "./schema.ts";

export const vectorSyscalls: Record<string, Syscall<Promise<Value>>> = {
  [SYSCALL.vectorSearch]: async (runner, execution, args) => {
    const query = parseVectorQuery(args.query as unknown as VectorQueryJson);
    const results = await runner.transaction(execution.component, execution.record, false, () =>
      Promise.resolve(search(runner, execution.component, query)),
    );
    return { results };
  },
};

function search(runner: Runner, component: ComponentPath, query: VectorQuery) {
  const { store } = runner;
  const name = `${query.table}.${query.index}`;
  const definition = runner.component(component);
  const declared = definition.tables.some((table) => table.table === query.table);
  const used = store.hasTable(component, query.table);
  // A table that does not exist yet has nothing to find, whatever the index (Convex answers so too).
  if (!used && !declared) return [];
  const index = used ? store.index(component, query.table, query.index) : undefined;
  if (!index) throw stagedIndexError(definition, name) ?? new Error(`Index ${name} not found.`);
  if (index.kind !== "vector") throw new Error(`Index ${name} is not a vector index`);
  const { tokens, limit } = compileVectorQuery(index, query);
  return store.vectorSearch(index, query.vector, tokens, limit);
}
