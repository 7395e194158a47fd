// The Command action's fields: a local program run as the user (docs/semantics.md,
// "Command action"). Paths can be typed, or chosen with "Browse…" (the system's dialog, through
// tauri-plugin-dialog).
import { i18n } from "@lingui/core";
import { type PickPath, messageOf, pickPath } from "../../ipc";
import type { CommandForm } from "../../logic/actionForm";
import { toast } from "../toast";
import { FieldErrors, TextArea, TextField, invalidAttrs, useFieldErrors } from "./fields";
import { Button } from "../components/Button";

type Props = { prefix: string; value: CommandForm; onChange: (v: CommandForm) => void };

function Browse({ id, pick, onPicked }: { id: string; pick: PickPath; onPicked: (path: string) => void }) {
  const browse = async () => {
    try {
      const chosen = await pickPath(pick);
      if (chosen) onPicked(chosen);
    } catch (e) {
      toast(i18n._("Could not open the dialog: {reason}", { reason: messageOf(e) }), "error");
    }
  };
  return (
    <Button id={id} onClick={browse}>
      {i18n._("Browse…")}
    </Button>
  );
}

export function CommandFields({ prefix: p, value, onChange }: Props) {
  const set = (patch: Partial<CommandForm>) => onChange({ ...value, ...patch });
  const shellId = `${p}cmd-shell`;
  const shellErrors = useFieldErrors(shellId);
  return (
    <>
      <label>
        <input
          id={shellId}
          type="checkbox"
          checked={value.shell}
          {...invalidAttrs(shellId, shellErrors)}
          onChange={(e) => set({ shell: e.currentTarget.checked })}
        />
        {i18n._("Run through the shell (sh -c, or cmd /C on Windows)")}
      </label>
      <FieldErrors id={shellId} errors={shellErrors} />
      <TextField
        id={`${p}cmd-program`}
        label={value.shell ? i18n._("Command line") : i18n._("Program")}
        value={value.program}
        mono
        placeholder={value.shell ? i18n._("backup.sh --all && echo done") : i18n._("/usr/bin/rsync, or a name on PATH")}
        onInput={(program) => set({ program })}
        after={
          !value.shell && (
            <Browse
              id={`${p}cmd-program-browse`}
              onPicked={(program) => set({ program })}
              pick={{ kind: "file", title: i18n._("The program to run"), defaultPath: value.program || undefined }}
            />
          )
        }
      />
      {!value.shell && (
        <TextArea
          id={`${p}cmd-arguments`}
          label={i18n._("Arguments")}
          hint={i18n._("One per line, passed as they are (no shell: ; and $ are plain text).")}
          value={value.arguments}
          mono
          rows={3}
          onInput={(args) => set({ arguments: args })}
        />
      )}
      <TextField
        id={`${p}cmd-working-directory`}
        label={i18n._("Working directory")}
        value={value.workingDirectory}
        mono
        placeholder={i18n._("Your home directory")}
        onInput={(workingDirectory) => set({ workingDirectory })}
        after={
          <Browse
            id={`${p}cmd-working-directory-browse`}
            onPicked={(workingDirectory) => set({ workingDirectory })}
            pick={{
              kind: "directory",
              title: i18n._("The working directory"),
              defaultPath: value.workingDirectory || undefined,
            }}
          />
        }
      />
      <TextArea
        id={`${p}cmd-environment`}
        label={i18n._("Environment")}
        hint={i18n._("NAME=value, one per line, added to yours.")}
        value={value.environment}
        mono
        rows={2}
        onInput={(environment) => set({ environment })}
      />
      <div class="grid">
        <TextField
          id={`${p}cmd-timeout`}
          label={i18n._("Timeout")}
          value={value.timeout}
          placeholder={i18n._("PT1H")}
          onInput={(timeout) => set({ timeout })}
        />
        <TextField
          id={`${p}cmd-success-codes`}
          label={i18n._("Success exit codes")}
          value={value.successExitCodes}
          placeholder="0"
          onInput={(successExitCodes) => set({ successExitCodes })}
        />
      </div>
    </>
  );
}
