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
import type * as admin from "../admin.js";
import type * as calendarFeed from "../calendarFeed.js";
import type * as cascade from "../cascade.js";
import type * as clerkUsers from "../clerkUsers.js";
import type * as crons from "../crons.js";
import type * as explore from "../explore.js";
import type * as functions from "../functions.js";
import type * as goLiveAlerts from "../goLiveAlerts.js";
import type * as http from "../http.js";
import type * as images from "../images.js";
import type * as insights from "../insights.js";
import type * as lib_categorySynonyms from "../lib/categorySynonyms.js";
import type * as lib_components from "../lib/components.js";
import type * as lib_constants from "../lib/constants.js";
import type * as lib_data_categories from "../lib/data/categories.js";
import type * as lib_data_demo from "../lib/data/demo.js";
import type * as lib_data_msaPopulations from "../lib/data/msaPopulations.js";
import type * as lib_data_msas from "../lib/data/msas.js";
import type * as lib_data_states from "../lib/data/states.js";
import type * as lib_explore from "../lib/explore.js";
import type * as lib_exploreListing from "../lib/exploreListing.js";
import type * as lib_exploreView from "../lib/exploreView.js";
import type * as lib_exploreWhen from "../lib/exploreWhen.js";
import type * as lib_html from "../lib/html.js";
import type * as lib_ics from "../lib/ics.js";
import type * as lib_lifecycle from "../lib/lifecycle.js";
import type * as lib_limits from "../lib/limits.js";
import type * as lib_notificationChannels from "../lib/notificationChannels.js";
import type * as lib_searchText from "../lib/searchText.js";
import type * as lib_shownTimes from "../lib/shownTimes.js";
import type * as lib_time from "../lib/time.js";
import type * as lib_timeZone from "../lib/timeZone.js";
import type * as lib_validation from "../lib/validation.js";
import type * as liveMap from "../liveMap.js";
import type * as liveShops from "../liveShops.js";
import type * as localAuth from "../localAuth.js";
import type * as localInbox from "../localInbox.js";
import type * as model_adminLog from "../model/adminLog.js";
import type * as model_calendarFeed from "../model/calendarFeed.js";
import type * as model_cards from "../model/cards.js";
import type * as model_cascade from "../model/cascade.js";
import type * as model_categories from "../model/categories.js";
import type * as model_clerkUsers from "../model/clerkUsers.js";
import type * as model_clerkWebhook from "../model/clerkWebhook.js";
import type * as model_corrections from "../model/corrections.js";
import type * as model_dataExport from "../model/dataExport.js";
import type * as model_env from "../model/env.js";
import type * as model_errors from "../model/errors.js";
import type * as model_exploreListings from "../model/exploreListings.js";
import type * as model_explorePages from "../model/explorePages.js";
import type * as model_exploreSearch from "../model/exploreSearch.js";
import type * as model_goLiveAlerts from "../model/goLiveAlerts.js";
import type * as model_home from "../model/home.js";
import type * as model_images from "../model/images.js";
import type * as model_insights from "../model/insights.js";
import type * as model_links from "../model/links.js";
import type * as model_liveShops from "../model/liveShops.js";
import type * as model_mapAreas from "../model/mapAreas.js";
import type * as model_noticeEvents from "../model/noticeEvents.js";
import type * as model_notifications from "../model/notifications.js";
import type * as model_ownership from "../model/ownership.js";
import type * as model_pages from "../model/pages.js";
import type * as model_privacy from "../model/privacy.js";
import type * as model_publicPages from "../model/publicPages.js";
import type * as model_pushDevices from "../model/pushDevices.js";
import type * as model_rateLimits from "../model/rateLimits.js";
import type * as model_restriction from "../model/restriction.js";
import type * as model_retention from "../model/retention.js";
import type * as model_settings from "../model/settings.js";
import type * as model_streams from "../model/streams.js";
import type * as model_timestamps from "../model/timestamps.js";
import type * as model_triggers from "../model/triggers.js";
import type * as model_userData from "../model/userData.js";
import type * as model_users from "../model/users.js";
import type * as model_viewer from "../model/viewer.js";
import type * as model_watchList from "../model/watchList.js";
import type * as model_weeklyDigest from "../model/weeklyDigest.js";
import type * as notifications from "../notifications.js";
import type * as privacy from "../privacy.js";
import type * as push from "../push.js";
import type * as pushSender from "../pushSender.js";
import type * as retention from "../retention.js";
import type * as seed from "../seed.js";
import type * as settings from "../settings.js";
import type * as streams from "../streams.js";
import type * as users from "../users.js";
import type * as watchList from "../watchList.js";
import type * as weeklyDigest from "../weeklyDigest.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  admin: typeof admin;
  calendarFeed: typeof calendarFeed;
  cascade: typeof cascade;
  clerkUsers: typeof clerkUsers;
  crons: typeof crons;
  explore: typeof explore;
  functions: typeof functions;
  goLiveAlerts: typeof goLiveAlerts;
  http: typeof http;
  images: typeof images;
  insights: typeof insights;
  "lib/categorySynonyms": typeof lib_categorySynonyms;
  "lib/components": typeof lib_components;
  "lib/constants": typeof lib_constants;
  "lib/data/categories": typeof lib_data_categories;
  "lib/data/demo": typeof lib_data_demo;
  "lib/data/msaPopulations": typeof lib_data_msaPopulations;
  "lib/data/msas": typeof lib_data_msas;
  "lib/data/states": typeof lib_data_states;
  "lib/explore": typeof lib_explore;
  "lib/exploreListing": typeof lib_exploreListing;
  "lib/exploreView": typeof lib_exploreView;
  "lib/exploreWhen": typeof lib_exploreWhen;
  "lib/html": typeof lib_html;
  "lib/ics": typeof lib_ics;
  "lib/lifecycle": typeof lib_lifecycle;
  "lib/limits": typeof lib_limits;
  "lib/notificationChannels": typeof lib_notificationChannels;
  "lib/searchText": typeof lib_searchText;
  "lib/shownTimes": typeof lib_shownTimes;
  "lib/time": typeof lib_time;
  "lib/timeZone": typeof lib_timeZone;
  "lib/validation": typeof lib_validation;
  liveMap: typeof liveMap;
  liveShops: typeof liveShops;
  localAuth: typeof localAuth;
  localInbox: typeof localInbox;
  "model/adminLog": typeof model_adminLog;
  "model/calendarFeed": typeof model_calendarFeed;
  "model/cards": typeof model_cards;
  "model/cascade": typeof model_cascade;
  "model/categories": typeof model_categories;
  "model/clerkUsers": typeof model_clerkUsers;
  "model/clerkWebhook": typeof model_clerkWebhook;
  "model/corrections": typeof model_corrections;
  "model/dataExport": typeof model_dataExport;
  "model/env": typeof model_env;
  "model/errors": typeof model_errors;
  "model/exploreListings": typeof model_exploreListings;
  "model/explorePages": typeof model_explorePages;
  "model/exploreSearch": typeof model_exploreSearch;
  "model/goLiveAlerts": typeof model_goLiveAlerts;
  "model/home": typeof model_home;
  "model/images": typeof model_images;
  "model/insights": typeof model_insights;
  "model/links": typeof model_links;
  "model/liveShops": typeof model_liveShops;
  "model/mapAreas": typeof model_mapAreas;
  "model/noticeEvents": typeof model_noticeEvents;
  "model/notifications": typeof model_notifications;
  "model/ownership": typeof model_ownership;
  "model/pages": typeof model_pages;
  "model/privacy": typeof model_privacy;
  "model/publicPages": typeof model_publicPages;
  "model/pushDevices": typeof model_pushDevices;
  "model/rateLimits": typeof model_rateLimits;
  "model/restriction": typeof model_restriction;
  "model/retention": typeof model_retention;
  "model/settings": typeof model_settings;
  "model/streams": typeof model_streams;
  "model/timestamps": typeof model_timestamps;
  "model/triggers": typeof model_triggers;
  "model/userData": typeof model_userData;
  "model/users": typeof model_users;
  "model/viewer": typeof model_viewer;
  "model/watchList": typeof model_watchList;
  "model/weeklyDigest": typeof model_weeklyDigest;
  notifications: typeof notifications;
  privacy: typeof privacy;
  push: typeof push;
  pushSender: typeof pushSender;
  retention: typeof retention;
  seed: typeof seed;
  settings: typeof settings;
  streams: typeof streams;
  users: typeof users;
  watchList: typeof watchList;
  weeklyDigest: typeof weeklyDigest;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
