/**
 * Deployment environment variables (`npx convex env list|get|set|remove`): checked as Convex checks
 * them, kept in the store (`SqliteStore.environmentVariables`), and seen by functions as
 * `process.env.NAME`. Functions run in this process, so the variables are set on `process.env` itself
 * (on start and on every change), and a variable that is removed gets back the value the process had
 * before, if any.
 */

export type EnvVar = { name: string; value: string };
export type EnvVarChange = { name: string; value: string | null };
export type EnvVarError = { code: string; message: string };

/** Convex's limits. */
export const ENV_VAR_LIMIT = 100;
const MAX_NAME_LENGTH = 40;
const MAX_VALUE_LENGTH = 8 * 1024;
const NAME = /^[a-zA-Z_]+[a-zA-Z0-9_]*$/;
/** Convex sets these for every deployment; they cannot be overridden. */
const BUILT_IN = new Set(["CONVEX_CLOUD_URL", "CONVEX_SITE_URL"]);

/** Why `change` is refused, in Convex's words, or null. */
export function checkEnvVarChange(change: EnvVarChange): EnvVarError | null {
  const { name, value } = change;
  if (!NAME.test(name)) {
    return {
      code: "EnvironmentVariableNameInvalid",
      message: `The environment variable name ${name} is invalid. Environment variable names must begin with a letter and may only include characters a-z, A-Z, 0-9, and underscores.`,
    };
  }
  if (name.length > MAX_NAME_LENGTH) {
    return {
      code: "EnvironmentVariableNameTooLong",
      message: `The environment variable name ${name} is too long. Environment variable names must be less than ${MAX_NAME_LENGTH}.`,
    };
  }
  if (value !== null && Buffer.byteLength(value) > MAX_VALUE_LENGTH) {
    return {
      code: "EnvironmentVariableValueTooLarge",
      message: `The environment variable value is ${Buffer.byteLength(value)} bytes, which is too large. (max size: ${MAX_VALUE_LENGTH}`,
    };
  }
  if (value !== null && BUILT_IN.has(name)) {
    return {
      code: "EnvVarNameForbidden",
      message: `Environment variable with name "${name}" is built-in and cannot be overridden`,
    };
  }
  return null;
}

export function envVarLimitMet(): EnvVarError {
  return {
    code: "EnvVarLimitMet",
    message: `The environment variable limit (${ENV_VAR_LIMIT}) has been met.`,
  };
}

/**
 * Puts the deployment's variables on `process.env`: each one set, and each one set before but no
 * longer stored given back its value from before this backend set it (or removed).
 */
export class ProcessEnv {
  /** The process's own value of each name this backend has set (undefined: it had none). */
  private readonly before = new Map<string, string | undefined>();

  apply(vars: EnvVar[]): void {
    const wanted = new Map(vars.map((v) => [v.name, v.value]));
    for (const [name, original] of this.before) {
      if (wanted.has(name)) continue;
      if (original === undefined) delete process.env[name];
      else process.env[name] = original;
      this.before.delete(name);
    }
    for (const [name, value] of wanted) {
      if (!this.before.has(name)) this.before.set(name, process.env[name]);
      process.env[name] = value;
    }
  }

  /** Gives back every value from before (the backend stops). */
  restore(): void {
    this.apply([]);
  }
}
