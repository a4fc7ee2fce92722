import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { createBackend } from './lib/backend/wails';
import { installDiagnostics } from './lib/diag';

const backend = createBackend();
installDiagnostics(backend);
const app = mount(App, { target: document.getElementById('app')!, props: { backend } });

export default app;
