// Entry point of the web app.
import './styles.css';
import { App } from './app.ts';

const root = document.getElementById('app');
if (root) new App(root).start();
