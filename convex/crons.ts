import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

// An interval rather than a clock time, so the run does not land on the top of the hour with
// every other job; a stream is ended at most five minutes after its two hours of grace.
crons.interval("end overdue streams", { minutes: 5 }, internal.streams.endOverdue, {});

// Data retention (model/retention.ts): once a day, off the hour; also sweeps expired data exports.
crons.daily("apply data retention", { hourUTC: 3, minuteUTC: 17 }, internal.retention.applyRetention, {});

// Go-live alerts are kept a day, to refuse announcing one twice (model/goLiveAlerts.ts).
crons.interval("prune go-live alerts", { hours: 1 }, internal.goLiveAlerts.prune, {});

// Reminders of saved shows an hour and ten minutes ahead (decision 036); each sent once whichever run
// sees the show first.
crons.interval("send show reminders", { minutes: 5 }, internal.notifications.sendReminders, {});

// The weekly digest (weeklyDigest.ts): each hour, the people whose Monday 08:xx it is, zone by zone.
// A minute past the hour, off the top of it, still within 08:xx in every zone.
crons.hourly("send weekly digests", { minuteUTC: 1 }, internal.weeklyDigest.plan, {});

// Notices are kept a month, to refuse sending one twice (model/notifications.ts).
crons.interval("prune notifications", { hours: 1 }, internal.notifications.prune, {});

// Seller insights (decision 089): a few minutes past each hour, settle the hour that ended and forget
// its visitor keys and secret.
crons.hourly("sweep insights", { minuteUTC: 4 }, internal.insights.sweep, {});

export default crons;
