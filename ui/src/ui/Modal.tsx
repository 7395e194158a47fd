// The modal dialog is the Dialog component now; this name stays for code written against it.
export { Dialog as Modal } from "./components/Dialog";
