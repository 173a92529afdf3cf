import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, test } from "vitest";
import { FieldsetList } from "../fieldset-list";
import { TextField } from "../text-field";

type Row = { key: string; text: string };

let made = 0;
const row = (text = ""): Row => ({ key: `row-${++made}`, text });

/** A list of notes as a form would hold it; its current value is shown for the assertions. */
function Notes({
  initial = [],
  max,
  reorder = false,
  canAdd,
  error,
}: {
  initial?: Row[];
  max?: number;
  reorder?: boolean;
  canAdd?: boolean;
  error?: string;
}) {
  const [rows, setRows] = useState(initial);
  return (
    <>
      <FieldsetList
        items={rows}
        onChange={setRows}
        keyOf={(item) => item.key}
        nameOf={(_, index) => `note ${index + 1}`}
        newItem={() => row()}
        addLabel="Add a note"
        max={max}
        reorder={reorder}
        canAdd={canAdd}
        empty="No notes yet."
        error={error}
        renderItem={(item, index, edit) => (
          <TextField
            label="Note"
            name={`notes.${index}`}
            value={item.text}
            onChange={(text) => edit({ text })}
          />
        )}
      />
      <output aria-label="Value">{rows.map((item) => item.text).join(",")}</output>
    </>
  );
}

const value = () => screen.getByRole("status", { name: "Value" }).textContent;
const group = (name: string) => screen.getByRole("group", { name });

describe("a list of fieldsets", () => {
  test("adding a row names it by its place and puts the cursor in its first field", async () => {
    render(<Notes />);
    expect(screen.getByText("No notes yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Add a note" }));
    expect(within(group("Note 1")).getByLabelText("Note")).toHaveFocus();
    await userEvent.keyboard("first");
    expect(value()).toBe("first");
    expect(screen.queryByText("No notes yet.")).not.toBeInTheDocument();
  });

  test("stops adding at its limit, before the form is submitted", async () => {
    render(<Notes initial={[row("a")]} max={2} />);
    const add = screen.getByRole("button", { name: "Add a note" });
    await userEvent.click(add);
    expect(add).toBeDisabled();
    await userEvent.click(screen.getByRole("button", { name: "Remove note 2" }));
    expect(add).toBeEnabled();
  });

  test("adds no row when the list says none can be added", () => {
    render(<Notes canAdd={false} />);
    expect(screen.getByRole("button", { name: "Add a note" })).toBeDisabled();
  });

  test("removing a row moves the cursor to the row that took its place, else the one before, else Add", async () => {
    render(<Notes initial={[row("a"), row("b"), row("c")]} />);
    await userEvent.click(screen.getByRole("button", { name: "Remove note 2" }));
    expect(value()).toBe("a,c");
    expect(within(group("Note 2")).getByLabelText("Note")).toHaveValue("c");
    expect(within(group("Note 2")).getByLabelText("Note")).toHaveFocus();

    await userEvent.click(screen.getByRole("button", { name: "Remove note 2" }));
    expect(within(group("Note 1")).getByLabelText("Note")).toHaveFocus();

    await userEvent.click(screen.getByRole("button", { name: "Remove note 1" }));
    expect(value()).toBe("");
    expect(screen.getByRole("button", { name: "Add a note" })).toHaveFocus();
  });

  test("moving a row keeps the cursor on it, on the other button once it reaches an end", async () => {
    render(<Notes initial={[row("a"), row("b"), row("c")]} reorder />);
    expect(screen.getByRole("button", { name: "Move note 1 up" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Move note 3 down" })).toBeDisabled();

    await userEvent.click(screen.getByRole("button", { name: "Move note 3 up" }));
    expect(value()).toBe("a,c,b");
    expect(screen.getByRole("button", { name: "Move note 2 up" })).toHaveFocus();

    await userEvent.click(screen.getByRole("button", { name: "Move note 2 up" }));
    expect(value()).toBe("c,a,b");
    expect(screen.getByRole("button", { name: "Move note 1 down" })).toHaveFocus();
  });

  test("works from the keyboard alone", async () => {
    render(<Notes initial={[row("a"), row("b")]} reorder />);
    screen.getByRole("button", { name: "Move note 1 down" }).focus();
    await userEvent.keyboard("{Enter}");
    expect(value()).toBe("b,a");
    expect(screen.getByRole("button", { name: "Move note 2 up" })).toHaveFocus();
    // Its "down" is off at the end, so the next stop is its Remove.
    await userEvent.tab();
    expect(screen.getByRole("button", { name: "Remove note 2" })).toHaveFocus();
    await userEvent.keyboard(" ");
    expect(value()).toBe("b");
    expect(within(group("Note 1")).getByLabelText("Note")).toHaveFocus();
  });

  test("says the list's own error", () => {
    render(<Notes error="At most 2 notes." />);
    expect(screen.getByText("At most 2 notes.")).toBeInTheDocument();
  });
});
