import { describe, expect, it } from "vitest";
import { fromAction, toAction } from "./actionForm";

describe("the Command action form", () => {
  it("round-trips every field through the form's text", () => {
    const json = {
      type: "Command",
      command: {
        program: "/usr/bin/rsync",
        arguments: ["-a", "a b", "$HOME"],
        workingDirectory: "/home/me",
        environment: { RSYNC_RSH: "ssh", EQ: "x=y" },
        timeout: "PT2H",
        successExitCodes: [0, 24],
      },
    };
    const form = fromAction(json);
    expect(form.type).toBe("Command");
    expect(form.command.arguments).toBe("-a\na b\n$HOME");
    expect(form.command.environment).toBe("RSYNC_RSH=ssh\nEQ=x=y");
    expect(form.command.successExitCodes).toBe("0, 24");
    expect(toAction(form)).toEqual(json);
  });

  it("reads the type in any case and sends only what was given", () => {
    const form = fromAction({ type: "command", command: { program: "true" } });
    expect(form.type).toBe("Command");
    expect(toAction(form)).toEqual({ type: "Command", command: { program: "true" } });
  });

  it("with the shell, sends the line and no arguments", () => {
    const form = fromAction({ type: "Command", command: { program: "ls", arguments: ["-l"] } });
    form.command.shell = true;
    form.command.program = " ls -l | wc -l ";
    expect(toAction(form)).toEqual({ type: "Command", command: { program: "ls -l | wc -l", shell: true } });
  });

  it("parses environment lines, exit code lists and drops empty lines", () => {
    const form = fromAction({ type: "Command", command: { program: "p" } });
    form.command.arguments = "one\n\ntwo\n";
    form.command.environment = "A=1\r\nNOVALUE\n";
    form.command.successExitCodes = "0 3,\t7, x";
    expect(toAction(form).command).toEqual({
      program: "p",
      arguments: ["one", "two"],
      environment: { A: "1", NOVALUE: "" },
      successExitCodes: [0, 3, 7, "x"],
    });
  });

  it("switching to another type leaves no command behind", () => {
    const form = fromAction({ type: "Command", command: { program: "p" } });
    form.type = "Notification";
    expect(toAction(form)).toEqual({ type: "Notification" });
  });
});
