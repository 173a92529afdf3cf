import { useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { useNotices } from "@/components/notices/notices";
import { Button } from "@/components/ui/button";
import { Icon } from "@/components/ui/icon";
import { paths } from "@/config/paths";
import { cn } from "@/lib/cn";
import { errorMessage } from "@/lib/errors";
import { rememberPendingAction, type PendingAction } from "./pending-action";
import { useWatchListState } from "./watch-list-state";

export type WatchToggleVariant = "icon" | "full";

type Props = {
  kind: PendingAction["kind"];
  id: string;
  /** The stream's title or the shop's name: the button's name is "<verb> <name>". */
  name: string;
  /** "Save" or "Follow": the accessible name's verb, and the full button's text when not pressed. */
  verb: string;
  /** Added to the verb in the full button's text when pressed: "Save" + "d", "Follow" + "ing". */
  pressedSuffix: string;
  icon: string;
  pressedIcon: string;
  /** Extra classes on the icon when pressed (a filled heart). */
  pressedIconClassName?: string;
  pressed: boolean;
  variant: WatchToggleVariant;
  /** Calls the mutation (with its optimistic update) for the new state. */
  toggle: (next: boolean) => Promise<unknown>;
  /** The error notice's title for a failed change to `next`. */
  errorTitle: (next: boolean) => string;
};

/**
 * The save and follow buttons' shared behaviour. A toggle (`aria-pressed`) whose accessible name never
 * changes ("Save Denim drop"); the full variant shows "Saved" by adding a suffix hidden from the name.
 * Signed in, a click flips it at once (the mutation's optimistic update) and a refusal rolls it back
 * with the server's sentence in a notice; signed out, it remembers the action and goes to sign-in,
 * which returns here and PendingActionRunner completes it. A click while the session is still loading
 * waits for it. Not `disabled` while a change is in flight (that would drop keyboard focus): clicks are
 * ignored instead, and `aria-busy` says so.
 */
export function WatchToggleButton(props: Props) {
  const { kind, id, name, verb, pressedSuffix, pressed, variant, toggle, errorTitle } = props;
  const { status, whenKnown } = useWatchListState();
  const { show } = useNotices();
  const navigate = useNavigate();
  const location = useLocation();
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const shownPressed = status === "ready" && pressed;

  async function onClick() {
    if (inFlight.current) return;
    // The change the person sees the button offer; a click while loading means "save" / "follow".
    const next = !shownPressed;
    inFlight.current = true;
    setBusy(true);
    try {
      const current = status === "loading" ? await whenKnown() : status;
      if (current === "signedOut") {
        rememberPendingAction({ kind, id, label: name });
        void navigate(paths.signIn.getHref(`${location.pathname}${location.search}${location.hash}`));
        return;
      }
      await toggle(next);
    } catch (error) {
      show({ id: `watch-list-error:${kind}:${id}`, title: errorTitle(next), body: errorMessage(error) });
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  const icon = (
    <Icon
      name={shownPressed ? props.pressedIcon : props.icon}
      className={cn(variant === "icon" ? "size-5" : "size-4", shownPressed && props.pressedIconClassName)}
    />
  );
  const common = {
    "aria-pressed": shownPressed,
    "aria-busy": busy || undefined,
    onClick: () => void onClick(),
  };

  if (variant === "icon") {
    return (
      <Button
        {...common}
        size="icon"
        variant={shownPressed ? "primary" : "outline"}
        aria-label={`${verb} ${name}`}
        title={`${verb}${shownPressed ? pressedSuffix : ""}`}
        className="shadow-sm"
      >
        {icon}
      </Button>
    );
  }
  return (
    <Button {...common} variant={shownPressed ? "primary" : "outline"}>
      {icon}
      <span>
        {verb}
        {shownPressed && <span aria-hidden>{pressedSuffix}</span>} <span className="sr-only">{name}</span>
      </span>
    </Button>
  );
}
