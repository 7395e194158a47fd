import "@picocss/pico/css/pico.min.css";
import "./styles.css";
import { render } from "preact";
import { App } from "./ui/App";
import { initTheme } from "./ui/theme";

initTheme();
render(<App />, document.getElementById("app")!);
