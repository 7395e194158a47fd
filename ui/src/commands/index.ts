// The window's commands: the registry (definitions, handlers, running), the built-in commands,
// the keyboard shortcuts the page binds and the native menu's listener.
export { CONTEXT_COMMANDS, type ContextCommandId } from "./builtin";
export { MENU_COMMAND_IDS, type MenuCommandId, runMenuCommand, useMenuCommands } from "./menu";
export {
  type Command,
  type Handler,
  type Section,
  SECTIONS,
  availableCommands,
  isAvailable,
  runCommand,
  useCommandHandler,
} from "./registry";
export { shortcutLabel, usePaletteShortcut } from "./shortcuts";
