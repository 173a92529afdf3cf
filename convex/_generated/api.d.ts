/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as functions from "../functions.js";
import type * as lib_constants from "../lib/constants.js";
import type * as lib_data_categories from "../lib/data/categories.js";
import type * as lib_data_demo from "../lib/data/demo.js";
import type * as lib_data_msas from "../lib/data/msas.js";
import type * as lib_data_states from "../lib/data/states.js";
import type * as lib_explore from "../lib/explore.js";
import type * as lib_lifecycle from "../lib/lifecycle.js";
import type * as lib_time from "../lib/time.js";
import type * as lib_validation from "../lib/validation.js";
import type * as model_categories from "../model/categories.js";
import type * as model_env from "../model/env.js";
import type * as model_errors from "../model/errors.js";
import type * as model_liveShops from "../model/liveShops.js";
import type * as model_streams from "../model/streams.js";
import type * as model_timestamps from "../model/timestamps.js";
import type * as model_users from "../model/users.js";
import type * as model_viewer from "../model/viewer.js";
import type * as seed from "../seed.js";
import type * as streams from "../streams.js";
import type * as users from "../users.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  functions: typeof functions;
  "lib/constants": typeof lib_constants;
  "lib/data/categories": typeof lib_data_categories;
  "lib/data/demo": typeof lib_data_demo;
  "lib/data/msas": typeof lib_data_msas;
  "lib/data/states": typeof lib_data_states;
  "lib/explore": typeof lib_explore;
  "lib/lifecycle": typeof lib_lifecycle;
  "lib/time": typeof lib_time;
  "lib/validation": typeof lib_validation;
  "model/categories": typeof model_categories;
  "model/env": typeof model_env;
  "model/errors": typeof model_errors;
  "model/liveShops": typeof model_liveShops;
  "model/streams": typeof model_streams;
  "model/timestamps": typeof model_timestamps;
  "model/users": typeof model_users;
  "model/viewer": typeof model_viewer;
  seed: typeof seed;
  streams: typeof streams;
  users: typeof users;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
