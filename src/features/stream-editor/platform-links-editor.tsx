import { Field, controlClass } from "@/components/forms/field";
import { FieldsetList } from "@/components/forms/fieldset-list";
import { TextField } from "@/components/forms/text-field";
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
  return (
    <FieldsetList
      items={links}
      onChange={onChange}
      keyOf={(link) => link.key}
      nameOf={(link) => `${PLATFORMS[link.platformType].label} link`}
      newItem={() => ({
        key: crypto.randomUUID(),
        platformType: unused[0] ?? PLATFORM_TYPES[0],
        platformStreamUrl: "",
        platformActionUrl: "",
      })}
      canAdd={unused.length > 0}
      addLabel="Add a platform link"
      empty="No platform links yet."
      rowClassName="grid gap-3 sm:grid-cols-[12rem_1fr]"
      actionsClassName="sm:col-start-2"
      renderItem={(link, index, edit) => {
        const prefix = `platforms.${index}`;
        const label = PLATFORMS[link.platformType].label;
        return (
          <>
            <Field label="Platform" error={errors[`${prefix}.platformType`]}>
              {(control) => (
                <select
                  {...control}
                  name={`${prefix}.platformType`}
                  value={link.platformType}
                  onChange={(event) => edit({ platformType: event.target.value as PlatformType })}
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
              onChange={(platformStreamUrl) => edit({ platformStreamUrl })}
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
              onChange={(platformActionUrl) => edit({ platformActionUrl })}
              error={errors[`${prefix}.platformActionUrl`]}
              optional
            />
          </>
        );
      }}
    />
  );
}
