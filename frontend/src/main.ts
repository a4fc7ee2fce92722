import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { createBackend } from '#backend-impl';

const app = mount(App, { target: document.getElementById('app')!, props: { backend: createBackend() } });

export default app;
