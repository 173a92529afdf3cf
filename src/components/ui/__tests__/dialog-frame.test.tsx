import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { StrictMode, useState } from "react";
import { describe, expect, test, vi } from "vitest";
import { ConfirmDialog } from "../confirm-dialog";
import { ReasonDialog } from "../reason-dialog";

function Asking({ onCancel = () => {} }: { onCancel?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Delete</button>
      <ConfirmDialog
        open={open}
        title="Delete it?"
        confirmLabel="Delete it"
        onConfirm={() => setOpen(false)}
        onCancel={() => {
          onCancel();
          setOpen(false);
        }}
      />
    </>
  );
}

describe("dialogs are the platform's modal <dialog>", () => {
  test("opened with showModal, focus on the safe answer, and back on the button when answered", async () => {
    const showModal = vi.spyOn(HTMLDialogElement.prototype, "showModal");
    render(<Asking />);
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("alertdialog", { name: "Delete it?" });
    expect(dialog.tagName).toBe("DIALOG");
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    await userEvent.click(screen.getByRole("button", { name: "Delete it" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete" })).toHaveFocus();
    showModal.mockRestore();
  });

  test("Escape and a click on the backdrop cancel; a click inside the panel does not", async () => {
    const onCancel = vi.fn();
    render(<Asking onCancel={onCancel} />);
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    await userEvent.keyboard("{Escape}");
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    await userEvent.click(screen.getByRole("heading", { name: "Delete it?" }));
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    // The dialog element itself is only reachable on its backdrop: its panel fills it.
    const dialog = screen.getByRole("alertdialog");
    fireEvent.pointerDown(dialog);
    fireEvent.click(dialog);
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });

  test("stays open through React's development remount (its close arrives as a later task)", async () => {
    render(
      <StrictMode>
        <Asking />
      </StrictMode>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    // The polyfill queues `close` with setTimeout(0), as browsers queue it: this runs after it.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByRole("alertdialog", { name: "Delete it?" })).toHaveAttribute("open");
  });

  test("while its answer is being saved, Escape leaves a reason dialog open", async () => {
    const onCancel = vi.fn();
    render(
      <ReasonDialog
        title="Suspend Nina's?"
        reasonLabel="Reason"
        confirmLabel="Suspend"
        pending
        onConfirm={() => {}}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "Suspend Nina's?" });
    expect(screen.getByRole("textbox", { name: "Reason" })).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(onCancel).not.toHaveBeenCalled();
    expect(dialog).toHaveAttribute("open");
  });
});
