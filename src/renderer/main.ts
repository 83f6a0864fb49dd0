import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { bridgeKey, createBridge } from './bridge'
import { createAppRouter } from './router'
import './styles/theme.css'

// The bridge first: it takes the launch secret out of the URL before the router reads the hash.
const bridge = createBridge()
createApp(App).provide(bridgeKey, bridge).use(createPinia()).use(createAppRouter()).mount('#app')
