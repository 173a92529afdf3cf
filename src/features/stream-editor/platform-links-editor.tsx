import { Field, controlClass } from "@/components/forms/field";
import { TextField } from "@/components/forms/text-field";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { PLATFORM_TYPES, PLATFORMS, type PlatformType } from "@convex/lib/constants";
import type { PlatformLinkDraft } from "./stream-draft";

type Props = {
  links: PlatformLinkDraft[];
  onChange: (links: PlatformLinkDraft[]) => void;
  errors: Record<string, string>;
};

function hostHint(type: PlatformType): string {
  const { hosts } = PLATFORMS[type];
  return hosts.length === 0 ? "Any secure link (https://)." : `A link on ${hosts.join(" or ")}.`;
}

/** Where the show can be watched: one link per platform, each checked against the platform's hosts. */
export function PlatformLinksEditor({ links, onChange, errors }: Props) {
  const used = new Set(links.map((link) => link.platformType));
  const unused = PLATFORM_TYPES.filter((type) => !used.has(type));
  const edit = (index: number, patch: Partial<PlatformLinkDraft>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...patch } : link)));
  return (
    <div className="space-y-3">
      {links.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">No platform links yet.</p>
      )}
      {links.map((link, index) => {
        const prefix = `platforms.${index}`;
        const label = PLATFORMS[link.platformType].label;
        return (
          <div
            key={link.key}
            role="group"
            aria-label={`${label} link`}
            className="grid gap-3 rounded-xl border border-slate-200 p-3 sm:grid-cols-[12rem_1fr] dark:border-slate-800"
          >
            <Field label="Platform" error={errors[`${prefix}.platformType`]}>
              {(control) => (
                <select
                  {...control}
                  name={`${prefix}.platformType`}
                  value={link.platformType}
                  onChange={(event) => edit(index, { platformType: event.target.value as PlatformType })}
                  className={controlClass}
                >
                  {PLATFORM_TYPES.filter((type) => type === link.platformType || !used.has(type)).map(
                    (type) => (
                      <option key={type} value={type}>
                        {PLATFORMS[type].label}
                      </option>
                    ),
                  )}
                </select>
              )}
            </Field>
            <TextField
              label={`${label} stream link`}
              name={`${prefix}.platformStreamUrl`}
              type="url"
              placeholder="https://"
              value={link.platformStreamUrl}
              onChange={(platformStreamUrl) => edit(index, { platformStreamUrl })}
              error={errors[`${prefix}.platformStreamUrl`]}
              hint={hostHint(link.platformType)}
            />
            <TextField
              className="sm:col-start-2"
              label={`${label} shop or buy link`}
              name={`${prefix}.platformActionUrl`}
              type="url"
              placeholder="https://"
              value={link.platformActionUrl}
              onChange={(platformActionUrl) => edit(index, { platformActionUrl })}
              error={errors[`${prefix}.platformActionUrl`]}
              optional
            />
            <Button
              variant="ghost"
              size="sm"
              className="justify-self-start text-red-700 sm:col-start-2 dark:text-red-300"
              onClick={() => onChange(links.filter((_, i) => i !== index))}
            >
              <Icon name="lucide:trash-2" className="size-4" />
              Remove {label} link
            </Button>
          </div>
        );
      })}
      <Button
        variant="outline"
        size="sm"
        disabled={unused.length === 0}
        onClick={() => {
          const [platformType] = unused;
          if (platformType)
            onChange([
              ...links,
              { key: crypto.randomUUID(), platformType, platformStreamUrl: "", platformActionUrl: "" },
            ]);
        }}
      >
        <Icon name="lucide:plus" className="size-4" />
        Add a platform link
      </Button>
    </div>
  );
}
