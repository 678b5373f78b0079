package io.pytestmobileagent.listener;

import android.app.Activity;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.res.Configuration;

import java.lang.reflect.Method;
import java.util.Locale;

/**
 * Sets the system locale without root, as Settings does: the activity manager's persistent
 * configuration, which the system then keeps (persist.sys.locale, the system_locales setting) and
 * every app is relaunched in. Needs android.permission.CHANGE_CONFIGURATION, a development
 * permission the harness grants over adb (pm grant); only senders holding DUMP (the shell) may
 * ask.
 *
 * adb shell am broadcast -a io.pytestmobileagent.listener.SET_LOCALE
 *     -n io.pytestmobileagent.listener/.LocaleReceiver --es locale zh-CN
 *
 * Result code -1 (RESULT_OK) with the locale the system reports afterwards as data; 0 with the
 * reason otherwise.
 */
public final class LocaleReceiver extends BroadcastReceiver {
    static final String EXTRA_LOCALE = "locale";

    @Override
    public void onReceive(Context context, Intent intent) {
        String tag = intent.getStringExtra(EXTRA_LOCALE);
        if (tag == null || tag.isEmpty()) {
            setResult(Activity.RESULT_CANCELED, "no locale extra: --es locale TAG", null);
            return;
        }
        try {
            Object manager = activityManager();
            Method get = manager.getClass().getMethod("getConfiguration");
            Configuration config = (Configuration) get.invoke(manager);
            config.setLocale(Locale.forLanguageTag(tag));
            // Marks the change as the user's, which is what makes the system persist it.
            Configuration.class.getField("userSetLocale").setBoolean(config, true);
            manager.getClass().getMethod("updatePersistentConfiguration", Configuration.class).invoke(manager, config);
            Configuration now = (Configuration) get.invoke(manager);
            setResult(Activity.RESULT_OK, now.locale.toLanguageTag(), null);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            setResult(Activity.RESULT_CANCELED, cause.getClass().getSimpleName() + ": " + cause.getMessage(), null);
        }
    }

    /** IActivityManager: ActivityManager.getService() from API 26, ActivityManagerNative before. */
    private static Object activityManager() throws Exception {
        try {
            return Class.forName("android.app.ActivityManager").getMethod("getService").invoke(null);
        } catch (NoSuchMethodException e) {
            return Class.forName("android.app.ActivityManagerNative").getMethod("getDefault").invoke(null);
        }
    }
}
