/**
 * Mutations' answers by the sync session and request that asked (decision 056). A sync client re-sends
 * a mutation it has no answer for after a reconnect, with the same session and request id; the answer
 * is recorded in the mutation's own transaction, so one that committed is answered again instead of
 * run twice, even after a crash between its commit and its answer. Convex keeps them in a system
 * table (`_session_requests`).
 */
import type Database from "better-sqlite3";
import { BOUND_LIMIT } from "../storage/statements.ts";

/**
 * How long a committed mutation's answer is kept for a client re-sending it (decision 056): Convex's
 * own window (`MAX_SESSION_CLEANUP_DURATION`, two weeks), longer than a tab plausibly stays asleep
 * with a mutation unanswered.
 */
export const ANSWER_RETENTION_MS = 14 * 24 * 3600_000;
/** Expired answers a recording commit deletes at most: more than it adds, so a backlog shrinks. */
export const ANSWER_PRUNE_BATCH = 16;
/**
 * Mutations' answers by the sync session and request that asked (decision 056), written in the
 * mutation's own transaction: `result` is Convex's JSON text of its value, `log_lines` a JSON array.
 */
export const MUTATION_ANSWERS_TABLE = `
  CREATE TABLE IF NOT EXISTS mutation_answers (
    session_id TEXT NOT NULL,
    request_id INTEGER NOT NULL,
    recorded_at INTEGER NOT NULL,
    result TEXT NOT NULL,
    log_lines TEXT NOT NULL,
    PRIMARY KEY (session_id, request_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS mutation_answers_by_time ON mutation_answers (recorded_at);
`;

/** A committed mutation's answer, as recorded with its writes. */
export type RecordedAnswer = { result: string; logLines: string[] };

/** The answers' statements, on the writer's connection. */
export function prepareAnswerStatements(db: Database.Database) {
  return {
    get: db
      .prepare<[string, number], [result: string, logLines: string]>(
        "SELECT result, log_lines FROM mutation_answers WHERE session_id = ? AND request_id = ?",
      )
      .raw(),
    put: db.prepare<[string, number, number, string, string]>(
      "INSERT INTO mutation_answers (session_id, request_id, recorded_at, result, log_lines) VALUES (?, ?, ?, ?, ?)",
    ),
    prune: db.prepare<[number, number]>(
      `DELETE FROM mutation_answers WHERE (session_id, request_id) IN
         (SELECT session_id, request_id FROM mutation_answers WHERE recorded_at < ? ORDER BY recorded_at ${BOUND_LIMIT})`,
    ),
  };
}
