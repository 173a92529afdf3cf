/** A component's schema as the engine uses it: its tables, their indexes, its document validators. */
import type { GenericSchema, SchemaDefinition } from "convex/server";
import type { TableIndexes } from "../database/index-catalog.ts";
import { vectorIndexSchemaError, type VectorIndexSpec } from "../database/vector-search.ts";
import type { ValidatorJson } from "../values/validate.ts";
import { exportSchema, type SchemaExport } from "./convex-abi.ts";
import type { ComponentDefinition } from "./execution.ts";

export type AnySchema = SchemaDefinition<GenericSchema, boolean>;

/** The system tables every component has, with the indexes the backend itself uses. */
const SYSTEM_TABLES: TableIndexes[] = [
  {
    table: "_scheduled_functions",
    indexes: [{ indexDescriptor: "by_state", fields: ["state.kind", "scheduledTime"] }],
    searchIndexes: [],
  },
  { table: "_storage", indexes: [], searchIndexes: [] },
];

/** A component's tables and validators from its schema (none: no validation, no declared indexes). */
export function describeSchema(
  schema: AnySchema | undefined,
): Pick<ComponentDefinition, "validators" | "tables"> {
  const exported: SchemaExport = schema ? exportSchema(schema) : { tables: [], schemaValidation: false };
  const validators = new Map<string, ValidatorJson>();
  const tables: TableIndexes[] = [...SYSTEM_TABLES];
  for (const table of exported.tables) {
    const staged = [
      ...(table.stagedDbIndexes ?? []),
      ...(table.stagedSearchIndexes ?? []),
      ...(table.stagedVectorIndexes ?? []),
    ].map((index) => index.indexDescriptor);
    tables.push({
      table: table.tableName,
      indexes: table.indexes,
      searchIndexes: table.searchIndexes,
      vectorIndexes: vectorIndexesOf(table),
      staged,
    });
    if (exported.schemaValidation && table.documentType && table.documentType.type !== "any") {
      validators.set(table.tableName, table.documentType);
    }
  }
  return { validators, tables };
}

/** A table's vector indexes, staged ones marked; a schema Convex would not accept throws its words. */
function vectorIndexesOf(table: SchemaExport["tables"][number]): VectorIndexSpec[] {
  const indexes = [
    ...(table.vectorIndexes ?? []),
    ...(table.stagedVectorIndexes ?? []).map((index) => ({ ...index, staged: true })),
  ];
  for (const index of indexes) {
    const error = vectorIndexSchemaError(table.tableName, index, table.documentType);
    if (error) throw new Error(error);
  }
  return indexes;
}

/** Convex's refusal of a query on a staged index (`crates/indexing/src/index_registry.rs`). */
export function stagedIndexError(component: ComponentDefinition, indexName: string): Error | null {
  const dot = indexName.indexOf(".");
  const table = indexName.slice(0, dot);
  const index = indexName.slice(dot + 1);
  const staged = component.tables.find((t) => t.table === table)?.staged ?? [];
  if (dot < 0 || !staged.includes(index)) return null;
  return new Error(
    `Index ${table}.${index} is currently staged and not available to query until it is enabled.`,
  );
}
