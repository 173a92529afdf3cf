/**
 * A vitest reporter, beside the default one, that prints each project's time when a run ends: its
 * files' durations added up (environment, set-up, import and tests). The projects run side by side,
 * so this is what each costs the machine, not a stretch of the wall clock. `.ci/run` and
 * `npm run test:quick` use it (decision 085).
 */
import type { Reporter, TestModule } from "vitest/node";

export default class ProjectTimes implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const projects = new Map<string, { files: number; ms: number }>();
    for (const module of modules) {
      const d = module.diagnostic();
      const project = projects.get(module.project.name) ?? { files: 0, ms: 0 };
      project.files += 1;
      project.ms +=
        d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
      projects.set(module.project.name, project);
    }
    for (const [name, { files, ms }] of [...projects].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`== vitest project ${name}: ${files} files, ${(ms / 1000).toFixed(1)} s`);
    }
  }
}
