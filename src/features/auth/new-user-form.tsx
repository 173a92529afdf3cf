import { useId, useState, type FormEvent } from "react";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { DEMO_USERS } from "@convex/lib/data/demo";
import { LIMITS, userProfileSchema } from "@convex/lib/validation";
import type { LocalIdentity } from "./local-auth";

const newUserSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z
        .email("Enter a valid email address, like name@example.com.")
        .max(LIMITS.email, `Email can be at most ${LIMITS.email} characters.`)
        // The seeded row already owns that address, so the backend would refuse a second account.
        .refine(
          (email) => !DEMO_USERS.some((user) => user.email === email),
          "That is a demo account: use its button above.",
        ),
    ),
  name: userProfileSchema.shape.name,
});

/** A fresh local account: `sub` is derived from the email, so the same email always returns to the same account. */
export function newUserIdentity(input: { email: string; name?: string }): LocalIdentity {
  const { email, name } = newUserSchema.parse(input);
  return { sub: `local|${email}`, email, name: name ?? email.split("@")[0] ?? email };
}

type NewUserFormProps = { busy: boolean; onSignIn: (identity: LocalIdentity) => void };

export function NewUserForm({ busy, onSignIn }: NewUserFormProps) {
  const emailId = useId();
  const nameId = useId();
  const errorId = useId();
  const nameErrorId = useId();
  const [errors, setErrors] = useState<{ email?: string; name?: string }>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = newUserSchema.safeParse({ email: form.get("email"), name: form.get("name") });
    if (!parsed.success) {
      const { fieldErrors } = z.flattenError(parsed.error);
      setErrors({ email: fieldErrors.email?.[0], name: fieldErrors.name?.[0] });
      return;
    }
    setErrors({});
    onSignIn(newUserIdentity(parsed.data));
  }

  const field =
    "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900 aria-invalid:border-red-500 focus-visible:outline-2 focus-visible:outline-primary-600";
  return (
    <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
      <div>
        <label htmlFor={emailId} className="text-sm font-medium">
          Email
        </label>
        <input
          id={emailId}
          name="email"
          type="email"
          autoComplete="email"
          required
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? errorId : undefined}
          className={field}
        />
        <FieldError id={errorId} message={errors.email} />
      </div>
      <div>
        <label htmlFor={nameId} className="text-sm font-medium">
          Name <span className="font-normal text-slate-500 dark:text-slate-400">(optional)</span>
        </label>
        <input
          id={nameId}
          name="name"
          type="text"
          autoComplete="name"
          maxLength={LIMITS.userName}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? nameErrorId : undefined}
          className={field}
        />
        <FieldError id={nameErrorId} message={errors.name} />
      </div>
      <Button type="submit" variant="outline" disabled={busy} className="sm:col-span-2 sm:justify-self-start">
        <Icon name="lucide:user-plus" />
        Sign in as a new user
      </Button>
    </form>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}
